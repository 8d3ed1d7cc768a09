// Windows: products of (min, len) intervals over which outputs are requested and compared
// (def. 2.1). Shared by the evaluators, the executors' output and the verdicts.
import { add } from './ops.js';
import type { Int, Value } from './value.js';

/** Visits the points of a window, first dimension fastest. */
export function forEachPoint(window: readonly (readonly [Int, Int])[], visit: (c: Value[]) => void): void {
  if (window.some(([, l]) => l <= 0)) return;
  const c: Int[] = window.map(([m]) => m);
  for (;;) {
    visit([...c]);
    let d = 0;
    for (; d < c.length; d++) {
      const [m, l] = window[d]!;
      c[d] = add(c[d]!, 1);
      if (c[d]! < add(m, l)) break;
      c[d] = m;
    }
    if (d === c.length) return;
  }
}
