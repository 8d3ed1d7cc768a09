// [C-STATUS], [C-ACCESS], [C-ALLOC], [C-FOR], [C-ASSERT], [C-IF], [C-LET], [C-VERDICT]: every
// stuck state of the reference maps to its own status of the binary, with a message; checked
// builds catch hand-made out-of-bounds programs; unwritten points come back as err.mem.
import { describe, expect, it } from 'vitest';
import { execTgt } from '../../src/target-semantics/exec.js';
import { compileAndRun } from '../../src/codegen/toolchain.js';
import { backendVerdict, validateBatch } from '../../src/codegen/validate.js';
import { E_MEM } from '../../src/expr/value.js';
import { input, pointwise, tgt } from './support.js';

const CASES = {
  assert: tgt(`pipeline f(n; x in (x.min, x.len)): { allocate f(x in (x.min, x.len)); assert n < 3; for f.s0.x in (x.min, x.len) do f[f.s0.x] <- n }`),
  negLoop: tgt(`pipeline f(n; x in (x.min, x.len)): { allocate f(x in (x.min, x.len)); for f.s0.x in (x.min, n) do f[f.s0.x] <- 1 }`),
  negAlloc: tgt(`pipeline f(n; x in (x.min, x.len)): { allocate f(x in (x.min, n)); for f.s0.x in (x.min, x.len) do f[f.s0.x] <- 1 }`),
  oobRead: tgt(`pipeline f(n; x in (x.min, x.len)): { allocate g(x in (0, 4)); for g.s0.x in (0, 4) do g[g.s0.x] <- g.s0.x; allocate f(x in (x.min, x.len)); for f.s0.x in (x.min, x.len) do f[f.s0.x] <- g[f.s0.x + n] }`),
  oobWrite: tgt(`pipeline f(n; x in (x.min, x.len)): { allocate f(x in (x.min, x.len)); for f.s0.x in (x.min, x.len) do f[f.s0.x + n] <- 1 }`),
  errControl: tgt(`pipeline f(n; x in (x.min, x.len)): { allocate g(x in (0, 4)); allocate f(x in (x.min, x.len)); if g[n] then f[x.min] <- 1 else nop }`),
  errIndex: tgt(`pipeline f(n; x in (x.min, x.len)): { allocate g(x in (0, 4)); allocate f(x in (x.min, x.len)); let e = g[n] in f[e] <- 1 }`),
  unallocated: tgt(`pipeline f(n; x in (x.min, x.len)): { if n > 0 then allocate g(x in (0, 1)) else nop; allocate f(x in (x.min, x.len)); g[0] <- 1; f[x.min] <- 2 }`),
  partial: tgt(`pipeline f(n; x in (x.min, x.len)): { allocate f(x in (x.min, x.len)); for f.s0.x in (x.min, n) do f[f.s0.x] <- 5 * f.s0.x }`),
  errStored: tgt(`pipeline f(n; x in (x.min, x.len)): { allocate g(x in (0, 4)); allocate f(x in (x.min, x.len)); for f.s0.x in (x.min, x.len) do let e = g[0] in if f.s0.x < n then f[f.s0.x] <- e + 1 else f[f.s0.x] <- select(1, f.s0.x, 0) }`),
};

describe('statuses of the binary', () => {
  it('match the stuck states of the reference, input by input (checked build)', async () => {
    const cases: [keyof typeof CASES, number, string][] = [
      ['assert', 5, 'assert'], ['assert', 1, 'ok'],
      ['negLoop', -1, 'negativeExtent'], ['negAlloc', -2, 'negativeExtent'],
      ['oobRead', 2, 'oobRead'], ['oobRead', 0, 'ok'],
      ['oobWrite', 1, 'oobWrite'], ['oobWrite', 0, 'ok'],
      ['errControl', 1, 'errorInControl'], ['errIndex', 1, 'oobWrite'],
      ['unallocated', 0, 'unallocated'], ['unallocated', 1, 'ok'],
      ['partial', 2, 'ok'], ['errStored', 2, 'ok'],
    ];
    const items = cases.map(([k, n]) => ({ t: CASES[k], inputs: [input([[0, 4]], { n })] }));
    const res = await compileAndRun(items, { checked: true });
    res.forEach((r, i) => {
      const [k, n, want] = cases[i]!;
      expect(r.kind, k).toBe('ran');
      if (r.kind !== 'ran') return;
      expect(r.status, `${k} n=${n}: ${r.message}`).toBe(want);
      if (want !== 'ok') expect(r.message).toBeTruthy();
      const ref = execTgt(items[i]!.t, items[i]!.inputs[0]!);
      const v = backendVerdict(ref, r, items[i]!.inputs[0]!.window);
      expect(v.ok, `${k}: ${JSON.stringify(v)}`).toBe(true);
    });
  });

  it('report out-of-bounds accesses with the point and the allocation', async () => {
    const [r] = await compileAndRun([{ t: CASES.oobRead, inputs: [input([[0, 4]], { n: 3 })] }], { checked: true });
    expect(r!.kind === 'ran' && r!.message).toMatch(/read of 'g' at \(4\) outside its allocation min \(0\) len \(4\)/);
  });

  it('represent unwritten points as err.mem and error values stored as errors', async () => {
    const [p, e] = await compileAndRun([
      { t: CASES.partial, inputs: [input([[0, 4]], { n: 2 })] },
      { t: CASES.errStored, inputs: [input([[0, 4]], { n: 2 })] },
    ]);
    expect(p!.kind === 'ran' && p!.output?.window).toEqual([0, 5, E_MEM, E_MEM]);
    expect(e!.kind === 'ran' && e!.output?.window).toEqual([E_MEM, E_MEM, 2, 3]);
  });

  it('an allocation with an extent of 0 is empty even when another extent is past the point limit', async () => {
    // f is 2^31 points wide in x and empty in y: the reference allocates it, then fails the assertion
    const t = tgt(`pipeline f(n; x in (x.min, x.len), y in (y.min, y.len)): { allocate f(x in (x.min - 2147483649, x.len + 2147483649), y in (y.min, 0)); assert n < 3; for f.s0.x in (x.min, x.len) do for f.s0.y in (y.min, y.len) do f[f.s0.x, f.s0.y] <- n }`);
    const inp = input([[0, 2], [0, 1]], { n: 5 });
    const ref = execTgt(t, inp);
    expect(ref.kind === 'stuck' && ref.stuck.kind).toBe('assert-failed');
    const [r] = await compileAndRun([{ t, inputs: [inp] }]);
    expect(r!.kind === 'ran' && r!.status).toBe('assert');
    expect(backendVerdict(ref, r!, inp.window)).toMatchObject({ ok: true });
  });

  it('a verdict fails when the binary and the reference disagree', async () => {
    const t = pointwise('x.min');
    const [r] = await compileAndRun([{ t, inputs: [input([[0, 2]])] }]);
    const other = execTgt(pointwise('x.min + 1'), input([[0, 2]]));
    const v = backendVerdict(other, r!, [[0, 2]]);
    expect(v).toMatchObject({ kind: 'differs', ok: false, point: [0], expected: 1, actual: 0 });
  });

  it('unchecked builds skip the range checks but still catch error values in indices', async () => {
    const vs = await validateBatch([{ t: CASES.errIndex, inputs: [input([[0, 4]], { n: 1 })] }], { backend: 'c' });
    expect(vs[0]![0]).toMatchObject({ kind: 'stuck', ok: true, binary: 'oobWrite' });
  });
});
