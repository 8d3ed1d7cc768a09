// vectorize(ℓ) (§2.8.6): a practical traversal order, semantically serial (see order.ts).
import { practicalOrder } from './order.js';

export const vectorize = practicalOrder('vectorize', 'VECTORIZE', 'VECTORIZE-EXTENT');
