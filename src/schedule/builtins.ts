// The built-in directives of fig. 2.11 plus reorder, vectorize, unroll and inline, in phase order.
import { alignBounds } from './align-bounds.js';
import { boundExtent } from './bound-extent.js';
import { bound } from './bound.js';
import { computeAt } from './compute-at.js';
import { fuse } from './fuse.js';
import { inline } from './inline.js';
import { type Directive, DirectiveRegistry } from './plugin.js';
import { reorder } from './reorder.js';
import { specialize } from './specialize.js';
import { split } from './split.js';
import { storeAt } from './store-at.js';
import { swap } from './swap.js';
import { traverse } from './traverse.js';
import { unroll } from './unroll.js';
import { vectorize } from './vectorize.js';

export const BUILTINS: readonly Directive[] = [
  specialize, split, fuse, swap, reorder, traverse, vectorize, unroll, inline, computeAt, storeAt, bound, boundExtent, alignBounds,
];

export function builtinRegistry(): DirectiveRegistry {
  return new DirectiveRegistry(BUILTINS);
}
