// The inputs `validate` generates: two of eight default inputs were empty windows, each printed as
// a plain "equal" though it compared no value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateInputs } from '../../src/codegen/inputs.js';
import { verdictsToCheck } from '../../src/codegen/hook.js';
import { backendVerdict, showBackendVerdict } from '../../src/codegen/validate.js';
import { parseTgt } from '../../src/target-semantics/parse.js';
import { int } from '../../src/expr/value.js';

const t = parseTgt(`pipeline f(k; x in (x.min, x.len), y in (y.min, y.len)):
{
  allocate f(x in (x.min, x.len), y in (y.min, y.len));
  for f.s0.y in (y.min, y.len) do for f.s0.x in (x.min, x.len) do f[f.s0.x, f.s0.y] <- k
}
`, 't.tgt');

describe('validate inputs', () => {
  it('generated windows are never empty, for any seed: every default input compares values', () => {
    fc.assert(fc.property(fc.integer({ min: -1000, max: 1000 }), (seed) => {
      for (const z of generateInputs(t, 8, seed)) for (const [, len] of z.window) expect(Number(len)).toBeGreaterThan(0);
    }));
  });

  it("the user's own empty window is kept, and its verdict says vacuous, never equal", () => {
    const first = { window: [[int(0), int(0)], [int(0), int(3)]] as const, params: new Map([['k', int(1)]]) };
    expect(generateInputs(t, 2, 1, first)[0]).toBe(first);
    const v = backendVerdict({ kind: 'done', output: { min: [0n, 0n], len: [0n, 3n], data: [] } } as never, { kind: 'ran', status: 'ok', output: { window: [] } } as never, first.window);
    expect(v).toMatchObject({ kind: 'equal', compared: 0 });
    expect(showBackendVerdict(v)).toBe('vacuous: the window is empty, nothing was compared');
    // in a backend campaign, such a pass is counted as vacuous
    expect(verdictsToCheck([v])).toEqual({ status: 'pass', vacuous: 'empty_window' });
  });
});
