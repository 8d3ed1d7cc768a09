// FPIR-RULES-RUN: lowering rules compiled and run against the interpreter, Neon ones under
// qemu-aarch64 (skipped, naming the packages, without the cross toolchain).
import { describe, expect, it } from 'vitest';
import { NEON_PACKAGES, neonToolchain } from '../../src/codegen/fpir-harness.js';
import { runLoweringRules } from '../../src/codegen/fpir-rules-run.js';
import { LOWERING_RULES } from '../../src/fpir/lower-rules.js';

const named = (re: RegExp) => LOWERING_RULES.filter((r) => re.test(r.name));

describe('FPIR-RULES-RUN', () => {
  it.skipIf(!neonToolchain())(`runs the Neon dot-product (sdot/udot too), narrowing-shift and multiply-accumulate rules under qemu-aarch64 (skipped without ${NEON_PACKAGES.join(', ')})`, async () => {
    const rules = named(/^lower-neon-(dot|.*shr-narrow-(u16|i32)|umlal-u8$|rounding-mul-shr)/);
    const runs = await runLoweringRules(rules, { vectors: 4 });
    expect(runs.filter((r) => r.status !== 'agree')).toEqual([]);
    // Each constant wildcard is tried at its least, a middle and its greatest allowed value.
    expect(runs.find((r) => r.rule === 'lower-neon-saturating-rounding-shr-narrow-u16')!.constants).toEqual(['c0=1', 'c0=5', 'c0=8']);
  }, 180_000);

  it('runs the AVX2 dot products (accumulated, and vpdpbusd too), the narrowing shifts and the AVX-512 rounding one on this CPU; a rule bounding operand values is not run, and says why', async () => {
    const runs = await runLoweringRules(named(/^lower-(avx2-(dot|saturating-shr-narrow|saturating-cast-u16-u8)|avx(2|512)-saturating-rounding-shr-narrow)/), { vectors: 4 });
    expect(runs.filter((r) => r.status === 'agree').map((r) => r.rule)).toEqual(['lower-avx2-dot-i16', 'lower-avx2-dot-i16-acc', 'lower-avx2-dot4-u8-i8', 'lower-avx2-dot-u8-i8', 'lower-avx2-saturating-shr-narrow-u16-u8', 'lower-avx2-saturating-rounding-shr-narrow-u16-u8', 'lower-avx512-saturating-rounding-shr-narrow-u16-u8']);
    expect(runs.find((r) => r.rule === 'lower-avx2-saturating-cast-u16-u8')).toMatchObject({ status: 'not run', detail: expect.stringContaining('FPIR-BOUNDS') });
  }, 120_000);

  it.skipIf(!neonToolchain())('a wrong lowering rule differs on some lane (uqshrn for a truncating narrowing shift)', async () => {
    const wrong = { ...LOWERING_RULES.find((r) => r.name === 'lower-neon-saturating-shr-narrow-u16')!, lhs: 'u8(x_u16 >> c0_u16)', name: 'wrong' };
    const [run] = await runLoweringRules([wrong], { vectors: 4, table: [wrong] });
    expect(run).toMatchObject({ status: 'differ', detail: expect.stringMatching(/^c0=\d+: lane \d+/) });
  }, 120_000);

  it('without the cross compiler Neon rules are reported failed with the packages to install, never as agreeing', async () => {
    const [run] = await runLoweringRules(named(/^lower-neon-add-u16$/), { env: { ...process.env, AARCH64_CC: 'no-such-compiler' } });
    expect(run).toMatchObject({ status: 'failed', detail: expect.stringContaining('qemu-user') });
  });
});
