// [C-INDEX]: the C backend simplifies subscripts made of loop variables, parameters and integer
// constants with the integer rules, leaves subscripts that read memory or use let-bound values
// alone, and the rewritten program computes what the original does.
import { describe, expect, it } from 'vitest';
import { simplifyIndices } from '../../src/codegen/indices.js';
import { printTgt } from '../../src/target-semantics/print.js';
import { parseTgt } from '../../src/target-semantics/parse.js';
import { execTgt } from '../../src/target-semantics/exec.js';

const SRC = `pipeline out(k; x in (x.min, x.len)):
{
  allocate in_(x in (x.min - 1, x.len + 2));
  label in_: for in_.s0.x in (x.min - 1, x.len + 2) do in_[(in_.s0.x + 3) - 3] <- in_.s0.x * k;
  allocate out(x in (x.min, x.len));
  label out: for out.s0.x in (x.min, x.len) do
    let d = out.s0.x - out.s0.x in
    out[min(out.s0.x, out.s0.x + 2)] <- in_[(out.s0.x + 1) - 1] + in_[out.s0.x + d] + in_[in_[out.s0.x] * 0 + out.s0.x]
}`;

describe('simplifyIndices [C-INDEX]', () => {
  const t = parseTgt(SRC, 'idx.tgt');
  const u = simplifyIndices(t);
  const text = printTgt(u);

  it('rewrites integer subscripts and leaves the others', () => {
    expect(text).toContain('in_[in_.s0.x] <- in_.s0.x * k');
    expect(text).toContain('out[out.s0.x] <- in_[out.s0.x] + in_[out.s0.x + d] + in_[in_[out.s0.x] * 0 + out.s0.x]');
  });

  it('computes the same outputs', () => {
    for (const [min, len, k] of [[0, 5, 2], [-3, 4, -1], [7, 0, 3]] as const) {
      const input = { window: [[min, len]] as [number, number][], params: new Map([['k', k]]) };
      // Fewer steps (less arithmetic), the same outcome and values.
      const { steps: _a, ...after } = execTgt(u, input) as { steps?: number };
      const { steps: _b, ...before } = execTgt(t, input) as { steps?: number };
      expect(after).toEqual(before);
    }
  });
});
