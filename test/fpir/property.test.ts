// FPIR-RUN and FPIR-EMIT-PROGRAM: selected code compiled and run on this CPU agrees with the
// interpreter; the fpir fuzz property finds each planted selector fault (FPIR-FAULTS) on a case
// that exercises it, also among other expressions of one program, and passes the same cases
// without the fault.
import { describe, expect, it } from 'vitest';
import { fpir } from '../../src/fuzz/properties/fpir.js';
import { baseEnv, DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { FPIR_FAULTS } from '../../src/fpir/faults.js';
import { hostIsas } from '../../src/codegen/cpu.js';
import { propertyNamed } from '../../src/fuzz/properties/index.js';

const env = baseEnv(DEFAULT_CONFIG);
const withFault = (name: string) => ({ ...env, fpirFault: FPIR_FAULTS.find((f) => f.name === name)! });
const CASES: readonly (readonly [string, string])[] = [
  ['fpir-vpsubsw-unsigned', 'absd(a_u16, b_u16)'],
  ['fpir-packus-unsigned-unguarded', 'saturating_cast<u8>(a_u16)'],
  ['fpir-pack-without-vpermq', 'saturating_cast<u8>(a_i16)'],
  ['fpir-truncating-halving', 'halving_add(a_i8, b_i8)'],
];

describe.runIf(hostIsas().has('avx2'))('the fpir property on this CPU', () => {
  it('is an extra property, run when asked for', () => {
    expect(propertyNamed('fpir').name).toBe('fpir');
  });
  it.each(CASES)('finds %s on %s, which passes without the fault', async (fault, expr) => {
    const c = { items: [{ expr, target: 'avx2' as const, seed: 5 }] };
    expect(await fpir.checkAsync!(c, env)).toEqual({ status: 'pass' });
    const r = await fpir.checkAsync!(c, withFault(fault));
    expect(r.status).toBe('fail');
  }, 60_000);
  it('names the failing expression of a program that runs several, and keeps all of them in its text', async () => {
    const c = { items: [{ expr: 'saturating_add(a_u8, b_u8)', target: 'avx512' as const, seed: 1 }, { expr: 'absd(a_u16, b_u16)', target: 'avx2' as const, seed: 2 }, { expr: 'a_i8 + b_i8', target: 'avx2' as const, seed: 3 }] };
    expect(await fpir.checkAsync!(c, env)).toEqual({ status: 'pass' });
    const r = await fpir.checkAsync!(c, withFault('fpir-vpsubsw-unsigned'));
    expect(r.status === 'fail' && r.expected).toMatch(/lanes for absd\(a_u16, b_u16\) \(lower-avx2-absd-u16\)/);
    expect(fpir.decode(fpir.encode(c), env)).toEqual(c);
    // A reproducer of one expression, as the property wrote them before it ran several.
    expect(fpir.decode({ extra: { expr: 'absd(a_u16, b_u16)', target: 'avx2', seed: '2' } }, env)).toEqual({ items: [c.items[1]] });
  }, 60_000);
  it('passes random cases, the Sobel kernel included, and replays a case from its text', async () => {
    const sobel = { items: [{ expr: 'saturating_cast<u8>(absd(widening_add(a_u8, c_u8) + widening_shl(b_u8, 1), widening_add(d_u8, f_u8) + widening_shl(e_u8, 1)))', target: 'avx512' as const, seed: 3 }] };
    expect(await fpir.checkAsync!(sobel, env)).toEqual({ status: 'pass' });
    for (const seed of [1, 2, 3]) {
      const c = fpir.concretize([{ seed, depth: 3, target: 'avx2' }, null, { seed: seed + 10, depth: 3, target: 'avx512' }], env);
      expect(c.items).toHaveLength(2);
      expect(await fpir.checkAsync!(fpir.decode(fpir.encode(c), env), env), fpir.encode(c).extra!.expr).toEqual({ status: 'pass' });
    }
  }, 120_000);
});
