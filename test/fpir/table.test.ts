// The intrinsic table: its interpreter's routing (packs' 128-bit blocks, vpermq), its entries
// against the FPIR instructions they claim (FPIR-TABLE-FPIR, Neon included), and every x86 entry
// on this CPU (FPIR-TABLE-CPU; one harness compile for the whole file).
import { beforeAll, describe, expect, it } from 'vitest';
import { INTRINSICS } from '../../src/fpir/intrinsics.js';
import { applyIntrinsic, intrinsicNamed, reinterpret, routeTags } from '../../src/fpir/machine.js';
import { checkClaims } from '../../src/fpir/table-check.js';
import { type HarnessReport, checkTableOnCpu } from '../../src/codegen/fpir-harness.js';
import { cCall, cLoad } from '../../src/fpir/emit-c.js';
import { UserError } from '../../src/diag.js';

const reg = (elem: { signed: boolean; bits: 8 | 16 | 32 | 64 }, lanes: bigint[]) => ({ type: { elem, lanes: lanes.length }, lanes });
const I16 = { signed: true, bits: 16 } as const;

describe('FPIR-INTRINSIC', () => {
  it('vpackuswb works per 128-bit block: a0..7 b0..7 a8..15 b8..15', () => {
    const a = reg(I16, Array.from({ length: 16 }, (_, i) => BigInt(i)));
    const b = reg(I16, Array.from({ length: 16 }, (_, i) => BigInt(100 + i)));
    const r = applyIntrinsic(intrinsicNamed('_mm256_packus_epi16'), [a, b]);
    expect(r.lanes.map(Number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 100, 101, 102, 103, 104, 105, 106, 107, 8, 9, 10, 11, 12, 13, 14, 15, 108, 109, 110, 111, 112, 113, 114, 115]);
    const fixed = applyIntrinsic(intrinsicNamed('_mm256_permute4x64_epi64'), [r], 0xd8);
    expect(reinterpret(fixed, r.type).lanes.map(Number)).toEqual([...Array.from({ length: 16 }, (_, i) => i), ...Array.from({ length: 16 }, (_, i) => 100 + i)]);
  });
  it('saturates in the lane formula and reinterprets registers by their bits', () => {
    const a = reg(I16, [-5n, 300n, ...Array(14).fill(0n)]);
    expect(applyIntrinsic(intrinsicNamed('_mm256_packus_epi16'), [a, a]).lanes.slice(0, 2)).toEqual([0n, 255n]);
    expect(reinterpret(reg({ signed: false, bits: 8 }, [1n, 2n]), { elem: I16, lanes: 1 }).lanes).toEqual([513n]);
  });
  it('rejects unknown intrinsics with the list, and bad immediates', () => {
    expect(() => intrinsicNamed('_mm256_nope')).toThrow(UserError);
    try {
      intrinsicNamed('_mm256_nope');
    } catch (e) {
      expect((e as UserError).hint).toContain('_mm256_adds_epu8');
    }
    expect(() => applyIntrinsic(intrinsicNamed('_mm256_extracti128_si256'), [reg({ signed: false, bits: 8 }, Array(32).fill(0n))], 2)).toThrow(/immediate in \[0, 1\]/);
  });
  it('FPIR-TAGS: routing applied to tags names each result lane\'s sources', () => {
    const tags = (v: string) => ({ bits: 256, bytes: Array.from({ length: 32 }, (_, i) => new Set([`${v}:${Math.floor(i / 2)}`])) });
    const t = routeTags(intrinsicNamed('_mm256_packus_epi16'), [tags('x'), tags('y')]);
    expect([...t.bytes[8]!]).toEqual(['y:0']);
    expect([...t.bytes[16]!]).toEqual(['x:8']);
  });
  it('FPIR-TABLE: quads routing: vpdpbusd adds four u8·i8 products to each 32-bit lane, wrapping; vpdpbusds saturates', () => {
    const b = reg({ signed: false, bits: 8 }, Array.from({ length: 32 }, (_, i) => BigInt(i < 4 ? 255 : i)));
    const c = reg({ signed: true, bits: 8 }, Array.from({ length: 32 }, (_, i) => (i < 4 ? 127n : -1n)));
    const acc = reg({ signed: true, bits: 32 }, [2147483647n, 10n, 0n, 0n, 0n, 0n, 0n, 0n]);
    const wrap = applyIntrinsic(intrinsicNamed('_mm256_dpbusd_avx_epi32'), [acc, b, c]).lanes;
    expect(wrap[0]).toBe(2147483647n + 4n * 255n * 127n - 2n ** 32n);
    expect(wrap[1]).toBe(10n - (4n + 5n + 6n + 7n));
    expect(applyIntrinsic(intrinsicNamed('_mm256_dpbusds_avx_epi32'), [acc, b, c]).lanes[0]).toBe(2147483647n);
    // sdot/udot: lane 1 of the result reads the accumulator's lane 1 and lanes 4–7 of both byte operands.
    const tags = (v: string, w: number) => ({ bits: 128, bytes: Array.from({ length: 16 }, (_, i) => new Set([`${v}:${Math.floor(i / w)}`])) });
    expect([...routeTags(intrinsicNamed('vdotq_u32'), [tags('acc', 4), tags('x', 1), tags('y', 1)]).bytes[4]!].sort()).toEqual(['acc:1', 'x:4', 'x:5', 'x:6', 'x:7', 'y:4', 'y:5', 'y:6', 'y:7']);
  });
  it('lane moves: vpblendd by the immediate, valignd over two registers, vpermd by an index register', () => {
    const U32 = { signed: false, bits: 32 } as const;
    const a = reg(U32, Array.from({ length: 8 }, (_, i) => BigInt(i)));
    const b = reg(U32, Array.from({ length: 8 }, (_, i) => BigInt(10 + i)));
    expect(applyIntrinsic(intrinsicNamed('_mm256_blend_epi32'), [a, b], 0b10000101).lanes.map(Number)).toEqual([10, 1, 12, 3, 4, 5, 6, 17]);
    // valignd(hi, lo, 3): lanes 3.. of lo, then the first lanes of hi
    expect(applyIntrinsic(intrinsicNamed('_mm256_alignr_epi32'), [b, a], 3).lanes.map(Number)).toEqual([3, 4, 5, 6, 7, 10, 11, 12]);
    const idx = reg(U32, [7n, 0n, 9n, 2n, 0xfffffff9n, 1n, 1n, 3n]);
    expect(applyIntrinsic(intrinsicNamed('_mm256_permutevar8x32_epi32'), [a, idx]).lanes.map(Number)).toEqual([7, 0, 1, 2, 1, 1, 1, 3]);
    const t = routeTags(intrinsicNamed('_mm256_permutevar8x32_epi32'), [
      { bits: 256, bytes: Array.from({ length: 32 }, (_, i) => new Set([`x:${Math.floor(i / 4)}`])) },
      { bits: 256, bytes: Array.from({ length: 32 }, (_, i) => new Set([`i:${Math.floor(i / 4)}`])) },
    ]);
    expect([...t.bytes[4]!].sort()).toEqual(['i:1', 'x:0', 'x:1', 'x:2', 'x:3', 'x:4', 'x:5', 'x:6', 'x:7']);
  });
  it('FPIR-EMIT: calls and loads come from the entry', () => {
    expect(cCall(intrinsicNamed('_mm256_permute4x64_epi64'), ['r'], 216)).toBe('_mm256_permute4x64_epi64(r, 216)');
    expect(cLoad(intrinsicNamed('vqaddq_u8').args[0]!, 'neon', 'p')).toBe('vld1q_u8((const void *)(p))');
  });
});

describe('FPIR-TABLE-FPIR on the FPIR-DOMAIN', () => {
  it('every entry claiming an FPIR instruction computes it (proved at 8 bits, sampled wider), Neon included', () => {
    const r = checkClaims(INTRINSICS, 4000);
    expect(r.filter((c) => c.status === 'refuted')).toEqual([]);
    expect(r.filter((c) => c.name.startsWith('vq')).length).toBeGreaterThan(5);
    expect(r.find((c) => c.name === '_mm256_adds_epu8')!.status).toBe('proved');
  });
  it('a wrong claim is refuted with a counterexample (vpsubsw is no unsigned saturating subtract)', () => {
    const wrong = { ...intrinsicNamed('_mm256_subs_epi16'), implements: 'i16(saturating_sub(u16(a_i16), u16(b_i16)))' };
    const [r] = checkClaims([wrong], 4000);
    expect(r!.status).toBe('refuted');
    expect(r!.counterexample).toMatch(/a_i16=/);
  });
});

describe('FPIR-TABLE-CPU', () => {
  let report: HarnessReport;
  const fake = { ...intrinsicNamed('_mm256_adds_epu8'), name: '_mm256_adds_epu8', features: ['avx2', 'avx5124fmaps'] };
  const lying = { ...intrinsicNamed('_mm256_subs_epu16'), name: '_mm256_subs_epi16', lane: 'u16(max(i32(a_u16) - i32(b_u16), 0))' };
  // One x86 entry in ten (the whole table runs in `refsem fpir-table` and `npm run bench:long`).
  // The four-way dot products (quads routing) too: AVX-VNNI and AVX-512 VNNI, where the CPU has them.
  const dots = ['_mm256_dpbusd_avx_epi32', '_mm_dpbusds_avx_epi32', '_mm512_dpbusd_epi32', '_mm256_dpbusds_epi32'];
  const some = INTRINSICS.filter((e) => e.target !== 'neon').filter((e, i) => i % 10 === 0 || e.name === '_mm256_adds_epu8' || dots.includes(e.name));
  beforeAll(async () => {
    report = await checkTableOnCpu([...some, fake, lying], { samples: 4096 });
  }, 120_000);

  it('every x86 entry is validated on this CPU or reported unvalidated with the reason', () => {
    const x86 = report.entries.slice(0, -2);
    expect(x86.length).toBe(some.length);
    for (const e of x86) expect(e.status === 'validated' || (e.status === 'not validated here' && /lacks/.test(e.detail!)), `${e.name}: ${e.detail}`).toBe(true);
    expect(x86.find((e) => e.name === '_mm256_adds_epu8')!.exhaustive).toBe(true);
    expect(x86.filter((e) => dots.includes(e.name)).length).toBe(dots.length);
  });
  it('an entry whose features the CPU lacks is not validated here, never passed', () => {
    expect(report.entries.at(-2)).toMatchObject({ status: 'not validated here', calls: 0 });
  });
  it('an entry whose formula is not what the CPU does is refuted', () => {
    expect(report.entries.at(-1)!.status).toBe('refuted');
    expect(report.entries.at(-1)!.detail).toMatch(/CPU gave bytes/);
  });
});
