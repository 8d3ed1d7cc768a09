// unroll(ℓ) (§2.8.6): a practical traversal order, semantically serial (see order.ts).
import { practicalOrder } from './order.js';

export const unroll = practicalOrder('unroll', 'UNROLL', 'UNROLL-EXTENT');
