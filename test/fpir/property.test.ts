// FPIR-RUN and FPIR-EMIT-PROGRAM: selected code compiled and run on this CPU agrees with the
// interpreter; the fpir fuzz property finds each planted selector fault (FPIR-FAULTS) on a case
// that exercises it, and passes the same cases without the fault.
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
    const c = { expr, target: 'avx2' as const, seed: 5 };
    expect(await fpir.checkAsync!(c, env)).toEqual({ status: 'pass' });
    const r = await fpir.checkAsync!(c, withFault(fault));
    expect(r.status).toBe('fail');
  }, 60_000);
  it('passes random cases, the Sobel kernel included, and replays a case from its text', async () => {
    const sobel = { expr: 'saturating_cast<u8>(absd(widening_add(a_u8, c_u8) + widening_shl(b_u8, 1), widening_add(d_u8, f_u8) + widening_shl(e_u8, 1)))', target: 'avx512' as const, seed: 3 };
    expect(await fpir.checkAsync!(sobel, env)).toEqual({ status: 'pass' });
    for (const seed of [1, 2, 3]) {
      const c = fpir.concretize({ seed, depth: 3, target: 'avx2' }, env);
      expect(await fpir.checkAsync!(fpir.decode(fpir.encode(c), env), env), c.expr).toEqual({ status: 'pass' });
    }
  }, 120_000);
});
