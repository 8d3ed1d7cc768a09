// The intrinsic table generated from family descriptions (spec/fpir.md, [FPIR-FAMILIES]): as in
// VeGen (§3.2, §5), an instruction set's integer arithmetic is a few operations, each the same
// lane formula over several element types and register widths. A family gives the operation
// once — its C name and mnemonic patterns, its lane formula over a type placeholder, the FPIR
// instruction it implements — and the element types and widths it exists for; the entries are the
// product. Every generated entry is run like a hand-written one (x86 on this CPU, Neon under
// qemu-aarch64), so a family whose formula is wrong for one type is refuted there.
import type { Intrinsic, RegType, Routing, Target } from './intrinsic-model.js';
import { type ScalarType, tmax, tmin, typeName, typeNamed, widen, withSign } from './types.js';

const T = (name: string): ScalarType => typeNamed(name)!;
const view = (elem: ScalarType, bits: number): RegType => ({ elem, lanes: bits / elem.bits });
const LANEWISE: Routing = { k: 'lanewise' };

/** Fills a formula template: `T` the element type, `W` twice as wide, `S` signed of T's width, `U` unsigned, `B` bits, `N`/`X` T's ends. */
function fill(s: string, t: ScalarType): string {
  const w = widen(t);
  return s
    .replace(/\bT\(|_T\b|<T>/g, (m) => m.replace('T', typeName(t)))
    .replace(/\bW\(|_W\b/g, (m) => m.replace('W', typeName(w ?? t)))
    .replace(/\bS\(|_S\b/g, (m) => m.replace('S', typeName(withSign(t, true))))
    .replace(/\bU\(|_U\b/g, (m) => m.replace('U', typeName(withSign(t, false))))
    .replace(/\bB1\b/g, String(t.bits - 1))
    .replace(/\bB2\b/g, String(t.bits - 2))
    .replace(/\bB21\b/g, String(2 * t.bits - 1))
    .replace(/\bUX\b/g, String(tmax(withSign(t, false))))
    .replace(/\bB\b/g, String(t.bits))
    .replace(/\bN\b/g, String(tmin(t)))
    .replace(/\bX\b/g, String(tmax(t)));
}

// ---- x86: SSE2…SSE4.2 (128 bits), AVX2 (256), AVX-512 (512; 128/256 with AVX-512VL) ----------

type Width = 128 | 256 | 512;
const PREFIX: Readonly<Record<Width, string>> = { 128: '_mm_', 256: '_mm256_', 512: '_mm512_' };
/** x86 entries belong to the avx2 target up to 256 bits and to avx512 at 512 (the lowering targets). */
const x86Target = (w: Width): Target => (w === 512 ? 'avx512' : 'avx2');
/** The C suffix of an element type: epi8 for both u8 and i8 unless the operation is unsigned (epu8). */
const x86Suffix = (t: ScalarType, unsignedName: boolean): string => `ep${unsignedName && !t.signed ? 'u' : 'i'}${t.bits}`;
const MN = { 8: 'b', 16: 'w', 32: 'd', 64: 'q' } as const;

interface X86Family {
  /** C name without prefix, `$` the element suffix (epi16, epu8) */
  readonly c: string;
  /** mnemonic, `$` the size letter (b w d q) */
  readonly mnemonic: string;
  readonly types: readonly string[];
  /** features per width; absent: the family does not exist at that width */
  readonly features: (w: Width, t: ScalarType) => readonly string[] | undefined;
  readonly lane: string;
  readonly implements?: string;
  /** operand element types relative to T (default: T for every operand) */
  readonly args?: readonly string[];
  readonly result?: string;
  readonly imm?: readonly [number, number];
  readonly routing?: Routing;
  /** the C suffix names unsigned types epu (min, max, adds) rather than epi */
  readonly unsignedName?: boolean;
}

const bw = (t: ScalarType) => (t.bits <= 16 ? 'avx512bw' : 'avx512f');
/** SSE feature `sse`, AVX2, AVX-512 (BW for 8/16-bit lanes, F otherwise). */
const everywhere = (sse: string) => (w: Width, t: ScalarType): readonly string[] => (w === 128 ? [sse] : w === 256 ? ['avx2'] : ['avx512f', ...(bw(t) === 'avx512bw' ? ['avx512bw'] : [])]);
/** Only AVX-512: 512 bits with F/BW, 128/256 bits with VL. */
const avx512Only = (extra: readonly string[] = []) => (w: Width, t: ScalarType): readonly string[] => ['avx512f', ...(bw(t) === 'avx512bw' ? ['avx512bw'] : []), ...extra, ...(w === 512 ? [] : ['avx512vl'])];
/** Only up to AVX2 (AVX-512 gives masks or has no such instruction). */
const upToAvx2 = (sse: string) => (w: Width): readonly string[] | undefined => (w === 128 ? [sse] : w === 256 ? ['avx2'] : undefined);

const X86_FAMILIES: readonly X86Family[] = [
  { c: 'add_$', mnemonic: 'vpadd$', types: ['u8', 'u16', 'u32', 'u64'], features: everywhere('sse2'), lane: 'a_T + b_T' },
  { c: 'sub_$', mnemonic: 'vpsub$', types: ['u8', 'u16', 'u32', 'u64'], features: everywhere('sse2'), lane: 'a_T - b_T' },
  { c: 'adds_$', mnemonic: 'vpadds$', unsignedName: true, types: ['u8', 'i8', 'u16', 'i16'], features: everywhere('sse2'), lane: 'T(min(max(W(a_T) + W(b_T), N), X))', implements: 'saturating_add(a_T, b_T)' },
  { c: 'subs_$', mnemonic: 'vpsubs$', unsignedName: true, types: ['u8', 'i8', 'u16', 'i16'], features: everywhere('sse2'), lane: 'T(min(max(i32(a_T) - i32(b_T), N), X))', implements: 'saturating_sub(a_T, b_T)' },
  { c: 'avg_$', mnemonic: 'vpavg$', unsignedName: true, types: ['u8', 'u16'], features: everywhere('sse2'), lane: 'T((W(a_T) + W(b_T) + 1) >> 1)', implements: 'rounding_halving_add(a_T, b_T)' },
  ...(['min', 'max'] as const).flatMap((op): X86Family[] => [
    { c: `${op}_$`, mnemonic: `vp${op}u$`, unsignedName: true, types: ['u8', 'i16'], features: everywhere('sse2'), lane: `${op}(a_T, b_T)` },
    { c: `${op}_$`, mnemonic: `vp${op}s$`, unsignedName: true, types: ['i8', 'u16', 'i32', 'u32'], features: everywhere('sse4.1'), lane: `${op}(a_T, b_T)` },
    { c: `${op}_$`, mnemonic: `vp${op}q`, unsignedName: true, types: ['i64', 'u64'], features: avx512Only(), lane: `${op}(a_T, b_T)` },
  ]),
  { c: 'mullo_$', mnemonic: 'vpmull$', types: ['i16'], features: everywhere('sse2'), lane: 'a_T * b_T' },
  { c: 'mullo_$', mnemonic: 'vpmull$', types: ['i32'], features: everywhere('sse4.1'), lane: 'a_T * b_T' },
  { c: 'mullo_$', mnemonic: 'vpmullq', types: ['i64'], features: avx512Only(['avx512dq']), lane: 'a_T * b_T' },
  { c: 'mulhi_$', mnemonic: 'vpmulh$', unsignedName: true, types: ['i16', 'u16'], features: everywhere('sse2'), lane: 'T((W(a_T) * W(b_T)) >> 16)', implements: 'mul_shr(a_T, b_T, 16)' },
  { c: 'mulhrs_$', mnemonic: 'vpmulhrsw', types: ['i16'], features: everywhere('ssse3'), lane: 'i16((((i32(a_i16) * i32(b_i16)) >> 14) + 1) >> 1)' },
  { c: 'mul_epu32', mnemonic: 'vpmuludq', types: ['u64'], features: everywhere('sse2'), lane: 'u64(u32(a_u64)) * u64(u32(b_u64))' },
  { c: 'mul_epi32', mnemonic: 'vpmuldq', types: ['i64'], features: everywhere('sse4.1'), lane: 'i64(i32(a_i64)) * i64(i32(b_i64))' },
  // Dot products (§5.1.1): adjacent pairs of products summed, the x86 `vpmaddwd` / `vpmaddubsw`.
  { c: 'madd_epi16', mnemonic: 'vpmaddwd', types: ['i16'], result: 'i32', features: everywhere('sse2'), routing: { k: 'pairs' }, lane: 'i32(a_i16) * i32(b_i16) + i32(c_i16) * i32(d_i16)' },
  { c: 'maddubs_epi16', mnemonic: 'vpmaddubsw', types: ['u8'], args: ['u8', 'i8'], result: 'i16', features: everywhere('ssse3'), routing: { k: 'pairs' }, lane: 'i16(min(max(i32(a_u8) * i32(b_i8) + i32(c_u8) * i32(d_i8), -32768), 32767))' },
  { c: 'sign_$', mnemonic: 'vpsign$', types: ['i8', 'i16', 'i32'], features: upToAvx2('ssse3'), lane: 'select(b_T < 0, 0 - a_T, select(b_T == 0, T(0), a_T))' },
  { c: 'abs_$', mnemonic: 'vpabs$', types: ['i8', 'i16', 'i32'], result: 'U', features: everywhere('ssse3'), lane: 'U(select(a_T < 0, 0 - W(a_T), W(a_T)))', implements: 'abs(a_T)' },
  { c: 'abs_$', mnemonic: 'vpabsq', types: ['i64'], result: 'U', features: avx512Only(), lane: 'U(select(a_T < 0, 0 - a_T, a_T))', implements: 'abs(a_T)' },
  ...(['and', 'or', 'xor', 'andnot'] as const).map((op): X86Family => ({
    c: `${op}_si$`, mnemonic: `vp${op === 'andnot' ? 'andn' : op}`, types: ['u8'], features: (w) => (w === 128 ? ['sse2'] : w === 256 ? ['avx2'] : ['avx512f']),
    lane: op === 'andnot' ? '(a_u8 ^ 255) & b_u8' : `a_u8 ${op === 'and' ? '&' : op === 'or' ? '|' : '^'} b_u8`,
  })),
  { c: 'cmpeq_$', mnemonic: 'vpcmpeq$', types: ['u8', 'u16', 'u32'], features: upToAvx2('sse2'), lane: 'select(a_T == b_T, T(X), T(0))' },
  { c: 'cmpeq_$', mnemonic: 'vpcmpeqq', types: ['u64'], features: upToAvx2('sse4.1'), lane: 'select(a_T == b_T, T(X), T(0))' },
  { c: 'cmpgt_$', mnemonic: 'vpcmpgt$', types: ['i8', 'i16', 'i32'], features: upToAvx2('sse2'), lane: 'select(a_T > b_T, T(-1), T(0))' },
  { c: 'cmpgt_$', mnemonic: 'vpcmpgtq', types: ['i64'], features: upToAvx2('sse4.2'), lane: 'select(a_T > b_T, T(-1), T(0))' },
  // Shifts by an immediate: counts of the width or more give 0 (logical) or the sign ([FPIR-SHIFT]).
  { c: 'slli_$', mnemonic: 'vpsll$', types: ['u16', 'u32', 'u64'], imm: [0, 255], features: everywhere('sse2'), lane: 'a_T << n_u8' },
  { c: 'srli_$', mnemonic: 'vpsrl$', types: ['u16', 'u32', 'u64'], imm: [0, 255], features: everywhere('sse2'), lane: 'a_T >> n_u8' },
  { c: 'srai_$', mnemonic: 'vpsra$', types: ['i16', 'i32'], imm: [0, 255], features: everywhere('sse2'), lane: 'a_T >> n_u8' },
  { c: 'srai_$', mnemonic: 'vpsraq', types: ['i64'], imm: [0, 255], features: avx512Only(), lane: 'a_T >> n_u8' },
  // Shifts by a count register: every lane by the low 64 bits of the second operand.
  { c: 'sll_$', mnemonic: 'vpsll$', types: ['u16', 'u32', 'u64'], args: ['T', 'u64'], features: everywhere('sse2'), routing: { k: 'count' }, lane: 'a_T << b_u64' },
  { c: 'srl_$', mnemonic: 'vpsrl$', types: ['u16', 'u32', 'u64'], args: ['T', 'u64'], features: everywhere('sse2'), routing: { k: 'count' }, lane: 'a_T >> b_u64' },
  { c: 'sra_$', mnemonic: 'vpsra$', types: ['i16', 'i32'], args: ['T', 'u64'], features: everywhere('sse2'), routing: { k: 'count' }, lane: 'a_T >> b_u64' },
  { c: 'sra_$', mnemonic: 'vpsraq', types: ['i64'], args: ['T', 'u64'], features: avx512Only(), routing: { k: 'count' }, lane: 'a_T >> b_u64' },
  // Horizontal adds per 128-bit block: adjacent pairs of the first operand, then of the second.
  { c: 'hadd_$', mnemonic: 'vphadd$', types: ['i16', 'i32'], features: upToAvx2('ssse3'), routing: { k: 'hpairs' }, lane: 'a_T + b_T' },
  { c: 'hsub_$', mnemonic: 'vphsub$', types: ['i16', 'i32'], features: upToAvx2('ssse3'), routing: { k: 'hpairs' }, lane: 'a_T - b_T' },
  { c: 'hadds_$', mnemonic: 'vphaddsw', types: ['i16'], features: upToAvx2('ssse3'), routing: { k: 'hpairs' }, lane: 'T(min(max(i32(a_T) + i32(b_T), N), X))' },
  { c: 'blendv_epi8', mnemonic: 'vpblendvb', types: ['u8'], args: ['u8', 'u8', 'i8'], features: upToAvx2('sse4.1'), lane: 'select(c_i8 < 0, b_u8, a_u8)' },
  // Shifts by a count per lane (read unsigned: a huge count shifts everything out).
  { c: 'sllv_$', mnemonic: 'vpsllv$', types: ['u32', 'u64'], args: ['T', 'U'], features: (w, t) => (w === 512 ? ['avx512f'] : everywhere('avx2')(256, t)), lane: 'a_T << b_U' },
  { c: 'srlv_$', mnemonic: 'vpsrlv$', types: ['u32', 'u64'], args: ['T', 'U'], features: (w, t) => (w === 512 ? ['avx512f'] : everywhere('avx2')(256, t)), lane: 'a_T >> b_U' },
  { c: 'srav_$', mnemonic: 'vpsrav$', types: ['i32'], args: ['T', 'U'], features: (w, t) => (w === 512 ? ['avx512f'] : everywhere('avx2')(256, t)), lane: 'a_T >> b_U' },
  { c: 'sllv_$', mnemonic: 'vpsllvw', types: ['u16'], args: ['T', 'U'], features: avx512Only(), lane: 'a_T << b_U' },
  { c: 'srlv_$', mnemonic: 'vpsrlvw', types: ['u16'], args: ['T', 'U'], features: avx512Only(), lane: 'a_T >> b_U' },
  { c: 'srav_$', mnemonic: 'vpsrav$', types: ['i16', 'i64'], args: ['T', 'U'], features: avx512Only(), lane: 'a_T >> b_U' },
  // Rotates: the count modulo the width.
  { c: 'rol_$', mnemonic: 'vprol$', types: ['u32', 'u64'], imm: [0, 255], features: avx512Only(), lane: '(a_T << (n_u8 & B1)) | (a_T >> ((B - (n_u8 & B1)) & B21))' },
  { c: 'ror_$', mnemonic: 'vpror$', types: ['u32', 'u64'], imm: [0, 255], features: avx512Only(), lane: '(a_T >> (n_u8 & B1)) | (a_T << ((B - (n_u8 & B1)) & B21))' },
  { c: 'rolv_$', mnemonic: 'vprolv$', types: ['u32', 'u64'], features: avx512Only(), lane: '(a_T << (b_T & B1)) | (a_T >> ((B - (b_T & B1)) & B21))' },
  { c: 'rorv_$', mnemonic: 'vprorv$', types: ['u32', 'u64'], features: avx512Only(), lane: '(a_T >> (b_T & B1)) | (a_T << ((B - (b_T & B1)) & B21))' },
  ...(['unpacklo', 'unpackhi'] as const).map((op): X86Family => ({
    c: `${op}_$`, mnemonic: `vpunpck${op.slice(6)}$`, types: ['u8', 'u16', 'u32', 'u64'], args: ['T', 'T'], features: everywhere('sse2'), routing: { k: 'unpack', high: op === 'unpackhi' }, lane: 'a_T',
  })),
];

/** Entries of one x86 family at every width and type it exists for. */
function x86Entries(f: X86Family): Intrinsic[] {
  return f.types.flatMap((tn) =>
    ([128, 256, 512] as const).flatMap((w): Intrinsic[] => {
      const t = T(tn);
      const features = f.features(w, t);
      if (!features) return [];
      const ofT = (s: string): ScalarType => (s === 'T' ? t : s === 'U' ? withSign(t, false) : T(s));
      // A count register is always 128 bits (its low 64 bits are the count).
      const args = (f.args ?? (f.lane.includes('b_') ? ['T', 'T'] : ['T'])).map((s, k) => view(ofT(s), f.routing?.k === 'count' && k === 1 ? 128 : w));
      const result = f.result ? ofT(f.result) : t;
      const name = `${PREFIX[w]}${f.c.replace('$', f.c.includes('_si$') ? String(w) : x86Suffix(t, f.unsignedName ?? false))}`;
      return [{
        name, target: x86Target(w), mnemonic: f.mnemonic.replace('$', MN[t.bits as 8 | 16 | 32 | 64]),
        args, result: view(result, w), lane: fill(f.lane, t), routing: f.routing ?? LANEWISE, features,
        ...(f.imm ? { imm: f.imm } : {}), ...(f.implements ? { implements: fill(f.implements, t) } : {}),
      }];
    }),
  );
}

/** Widening moves (vpmovzx/vpmovsx): the low lanes of the operand, each extended. */
function x86Extends(): Intrinsic[] {
  const pairs = [[8, 16], [8, 32], [8, 64], [16, 32], [16, 64], [32, 64]] as const;
  return pairs.flatMap(([from, to]) =>
    ([false, true] as const).flatMap((signed) =>
      ([128, 256, 512] as const).map((w): Intrinsic => {
        const src = { signed, bits: from } as ScalarType;
        const dst = { signed, bits: to } as ScalarType;
        const lanes = w / to;
        const argBits = Math.max(128, lanes * from);
        const features = w === 128 ? ['sse4.1'] : w === 256 ? ['avx2'] : from === 8 && to === 16 ? ['avx512f', 'avx512bw'] : ['avx512f'];
        return {
          name: `${PREFIX[w]}cvtep${signed ? 'i' : 'u'}${from}_epi${to}`, target: x86Target(w), mnemonic: `vpmov${signed ? 's' : 'z'}x${MN[from]}${MN[to]}`,
          args: [view(src, argBits)], result: { elem: dst, lanes }, lane: `${typeName(dst)}(a_${typeName(src)})`, routing: LANEWISE, features,
        };
      }),
    ),
  );
}

/** AVX-512 narrowing moves: truncating (vpmov), signed (vpmovs) and unsigned (vpmovus) saturating. */
function x86Narrows(): Intrinsic[] {
  const pairs = [[16, 8], [32, 8], [32, 16], [64, 16], [64, 32]] as const;
  return pairs.flatMap(([from, to]) =>
    ([512, 256] as const).flatMap((w) =>
      (['', 's', 'us'] as const).flatMap((kind): Intrinsic[] => {
        const lanes = w / from;
        if (lanes * to < 128) return [];
        const src = { signed: kind !== 'us', bits: from } as ScalarType;
        const dst = { signed: kind !== 'us', bits: to } as ScalarType;
        const [sn, dn] = [typeName(src), typeName(dst)];
        const lane = kind === '' ? `${dn}(a_${sn})` : `${dn}(min(max(a_${sn}, ${tmin(dst)}), ${tmax(dst)}))`;
        const features = ['avx512f', ...(from === 16 ? ['avx512bw'] : []), ...(w === 256 ? ['avx512vl'] : [])];
        return [{
          name: `${PREFIX[w]}cvt${kind}epi${from}_epi${to}`, target: x86Target(w), mnemonic: `vpmov${kind}${MN[from]}${MN[to]}`,
          args: [view(src, w)], result: { elem: dst, lanes }, lane, routing: LANEWISE, features,
          ...(kind === '' ? {} : { implements: `saturating_cast<${dn}>(a_${sn})` }),
        }];
      }),
    ),
  );
}

/** Broadcasts of an immediate (`set1`): every lane the immediate, as the C argument's type reads it. */
function x86Set1(): Intrinsic[] {
  return (['i8', 'i16', 'i32', 'i64'] as const).flatMap((tn) =>
    ([128, 256, 512] as const).map((w): Intrinsic => {
      const t = T(tn);
      return {
        name: `${PREFIX[w]}set1_epi${t.bits}${t.bits === 64 && w < 512 ? 'x' : ''}`, target: x86Target(w), mnemonic: `vpbroadcast${MN[t.bits as 8 | 16 | 32 | 64]}`, args: [], result: view(t, w),
        imm: [Number(tmin(t)), Number(tmax(t))], lane: `${tn}(n_i64)`, routing: LANEWISE, features: w === 128 ? ['sse2'] : w === 256 ? ['avx2'] : ['avx512f'],
      };
    }),
  );
}

// ---- Arm Neon: 64-bit (d) and 128-bit (q) registers ----------------------------------------------

const NEON_TYPES = ['u8', 'i8', 'u16', 'i16', 'u32', 'i32'] as const;
/** Neon's type suffix: u8, s16. */
export const neonSuffix = (t: ScalarType): string => `${t.signed ? 's' : 'u'}${t.bits}`;

interface NeonFamily {
  /** C name pattern: `q` where the 128-bit form has its q, `$` the type suffix (u8, s16) */
  readonly c: string;
  readonly mnemonic: string;
  readonly types: readonly string[];
  readonly lane: string;
  readonly implements?: string;
  readonly args?: readonly string[];
  readonly result?: string;
  /** immediate range from the element type */
  readonly imm?: (t: ScalarType) => readonly [number, number];
  /** d and q forms (default), or only the d → q widening / q → d narrowing form */
  readonly shape?: 'dq' | 'widen' | 'narrow' | 'acc-widen';
}

const NEON_FAMILIES: readonly NeonFamily[] = [
  { c: 'vaddq_$', mnemonic: 'add', types: [...NEON_TYPES, 'u64', 'i64'], lane: 'a_T + b_T' },
  { c: 'vsubq_$', mnemonic: 'sub', types: [...NEON_TYPES, 'u64', 'i64'], lane: 'a_T - b_T' },
  { c: 'vqaddq_$', mnemonic: '$qadd', types: NEON_TYPES, lane: 'T(min(max(i64(a_T) + i64(b_T), N), X))', implements: 'saturating_add(a_T, b_T)' },
  { c: 'vqsubq_$', mnemonic: '$qsub', types: NEON_TYPES, lane: 'T(min(max(i64(a_T) - i64(b_T), N), X))', implements: 'saturating_sub(a_T, b_T)' },
  { c: 'vhaddq_$', mnemonic: '$hadd', types: NEON_TYPES, lane: 'T((i64(a_T) + i64(b_T)) >> 1)', implements: 'halving_add(a_T, b_T)' },
  { c: 'vrhaddq_$', mnemonic: '$rhadd', types: NEON_TYPES, lane: 'T((i64(a_T) + i64(b_T) + 1) >> 1)', implements: 'rounding_halving_add(a_T, b_T)' },
  { c: 'vhsubq_$', mnemonic: '$hsub', types: NEON_TYPES, lane: 'T((i64(a_T) - i64(b_T)) >> 1)', implements: 'halving_sub(a_T, b_T)' },
  { c: 'vabdq_$', mnemonic: '$abd', types: NEON_TYPES, lane: 'T(select(a_T > b_T, i64(a_T) - i64(b_T), i64(b_T) - i64(a_T)))' },
  { c: 'vminq_$', mnemonic: '$min', types: NEON_TYPES, lane: 'min(a_T, b_T)' },
  { c: 'vmaxq_$', mnemonic: '$max', types: NEON_TYPES, lane: 'max(a_T, b_T)' },
  { c: 'vmulq_$', mnemonic: 'mul', types: NEON_TYPES, lane: 'a_T * b_T' },
  { c: 'vmlaq_$', mnemonic: 'mla', types: NEON_TYPES, args: ['T', 'T', 'T'], lane: 'a_T + b_T * c_T' },
  { c: 'vmlsq_$', mnemonic: 'mls', types: NEON_TYPES, args: ['T', 'T', 'T'], lane: 'a_T - b_T * c_T' },
  { c: 'vandq_$', mnemonic: 'and', types: NEON_TYPES, lane: 'a_T & b_T' },
  { c: 'vorrq_$', mnemonic: 'orr', types: NEON_TYPES, lane: 'a_T | b_T' },
  { c: 'veorq_$', mnemonic: 'eor', types: NEON_TYPES, lane: 'a_T ^ b_T' },
  { c: 'vceqq_$', mnemonic: 'cmeq', types: NEON_TYPES, result: 'U', lane: 'select(a_T == b_T, U(UX), U(0))' },
  { c: 'vcgtq_$', mnemonic: 'cmgt', types: NEON_TYPES, result: 'U', lane: 'select(a_T > b_T, U(UX), U(0))' },
  { c: 'vabsq_$', mnemonic: 'abs', types: ['i8', 'i16', 'i32'], lane: 'select(a_T < 0, 0 - a_T, a_T)' },
  { c: 'vqabsq_$', mnemonic: 'sqabs', types: ['i8', 'i16', 'i32'], lane: 'T(min(select(a_T < 0, 0 - i64(a_T), i64(a_T)), X))' },
  { c: 'vqdmulhq_$', mnemonic: 'sqdmulh', types: ['i16', 'i32'], lane: 'T(min(max((i64(a_T) * i64(b_T)) >> B1, N), X))', implements: 'mul_shr(a_T, b_T, B1)' },
  { c: 'vqrdmulhq_$', mnemonic: 'sqrdmulh', types: ['i16', 'i32'], lane: 'T(min(max((i64(a_T) * i64(b_T) + (i64(1) << B2)) >> B1, N), X))', implements: 'rounding_mul_shr(a_T, b_T, B1)' },
  // Shifts by an immediate: left [0, B − 1], right [1, B] (Arm's ranges), rounding and saturating forms.
  { c: 'vshlq_n_$', mnemonic: 'shl', types: NEON_TYPES, imm: (t) => [0, t.bits - 1], lane: 'a_T << n_u8' },
  { c: 'vshrq_n_$', mnemonic: '$shr', types: NEON_TYPES, imm: (t) => [1, t.bits], lane: 'a_T >> n_u8' },
  { c: 'vrshrq_n_$', mnemonic: '$rshr', types: NEON_TYPES, imm: (t) => [1, t.bits], lane: 'T((i64(a_T) + (i64(1) << (n_u8 - 1))) >> n_u8)', implements: 'rounding_shr(a_T, T(n_u8))' },
  { c: 'vqshlq_n_$', mnemonic: '$qshl', types: NEON_TYPES, imm: (t) => [0, t.bits - 1], lane: 'T(min(max(i64(a_T) << n_u8, N), X))', implements: 'saturating_shl(a_T, T(n_u8))' },
  // Widening (d → q), accumulating widening and narrowing (q → d) forms.
  { c: 'vaddl_$', mnemonic: '$addl', types: NEON_TYPES, shape: 'widen', lane: 'W(a_T) + W(b_T)', implements: 'widening_add(a_T, b_T)' },
  { c: 'vsubl_$', mnemonic: '$subl', types: NEON_TYPES, shape: 'widen', lane: 'W(a_T) - W(b_T)' },
  { c: 'vmull_$', mnemonic: '$mull', types: NEON_TYPES, shape: 'widen', lane: 'W(a_T) * W(b_T)', implements: 'widening_mul(a_T, b_T)' },
  { c: 'vabdl_$', mnemonic: '$abdl', types: NEON_TYPES, shape: 'widen', lane: 'W(select(a_T > b_T, W(a_T) - W(b_T), W(b_T) - W(a_T)))' },
  { c: 'vshll_n_$', mnemonic: '$shll', types: NEON_TYPES, shape: 'widen', imm: (t) => [0, t.bits], lane: 'W(a_T) << n_u8', implements: 'widening_shl(a_T, T(n_u8))' },
  { c: 'vmlal_$', mnemonic: '$mlal', types: NEON_TYPES, shape: 'acc-widen', lane: 'a_W + W(b_T) * W(c_T)', implements: 'a_W + widening_mul(b_T, c_T)' },
  { c: 'vmlsl_$', mnemonic: '$mlsl', types: NEON_TYPES, shape: 'acc-widen', lane: 'a_W - W(b_T) * W(c_T)' },
  { c: 'vabal_$', mnemonic: '$abal', types: NEON_TYPES, shape: 'acc-widen', lane: 'a_W + W(select(b_T > c_T, W(b_T) - W(c_T), W(c_T) - W(b_T)))' },
  { c: 'vmovn_$', mnemonic: 'xtn', types: ['u16', 'i16', 'u32', 'i32', 'u64', 'i64'], shape: 'narrow', lane: 'H(a_T)' },
  { c: 'vqmovn_$', mnemonic: '$qxtn', types: ['u16', 'i16', 'u32', 'i32', 'u64', 'i64'], shape: 'narrow', lane: 'H(min(max(a_T, HN), HX))', implements: 'saturating_narrow(a_T)' },
  { c: 'vqmovun_$', mnemonic: 'sqxtun', types: ['i16', 'i32', 'i64'], shape: 'narrow', result: 'HU', lane: 'HU(min(max(a_T, 0), HUX))', implements: 'saturating_cast<HU>(a_T)' },
  { c: 'vshrn_n_$', mnemonic: 'shrn', types: ['u16', 'i16', 'u32', 'i32'], shape: 'narrow', imm: (t) => [1, t.bits / 2], lane: 'H(a_T >> n_u8)' },
  { c: 'vrshrn_n_$', mnemonic: 'rshrn', types: ['u16', 'i16', 'u32', 'i32'], shape: 'narrow', imm: (t) => [1, t.bits / 2], lane: 'H((i64(a_T) + (i64(1) << (n_u8 - 1))) >> n_u8)' },
  { c: 'vqshrn_n_$', mnemonic: '$qshrn', types: ['u16', 'i16', 'u32', 'i32'], shape: 'narrow', imm: (t) => [1, t.bits / 2], lane: 'H(min(max(a_T >> n_u8, HN), HX))' },
  { c: 'vqrshrn_n_$', mnemonic: '$qrshrn', types: ['u16', 'i16', 'u32', 'i32'], shape: 'narrow', imm: (t) => [1, t.bits / 2], lane: 'H(min(max((i64(a_T) + (i64(1) << (n_u8 - 1))) >> n_u8, HN), HX))', implements: 'saturating_narrow(rounding_shr(a_T, T(n_u8)))' },
];

/** Fills the half-width placeholders of narrowing formulas, then the rest. */
function fillNarrow(s: string, t: ScalarType): string {
  const h = { signed: t.signed, bits: t.bits / 2 } as ScalarType;
  const hu = withSign(h, false);
  return fill(
    s.replace(/\bHUX\b/g, String(tmax(hu))).replace(/\bHU\b/g, typeName(hu)).replace(/\bHN\b/g, String(tmin(h))).replace(/\bHX\b/g, String(tmax(h))).replace(/\bH\(/g, `${typeName(h)}(`),
    t,
  );
}

function neonEntries(f: NeonFamily): Intrinsic[] {
  return f.types.flatMap((tn) => {
    const t = T(tn);
    const sfx = neonSuffix(t);
    const entry = (name: string, args: readonly RegType[], result: RegType, lane: string, impl?: string): Intrinsic => ({
      name, target: 'neon', mnemonic: f.mnemonic.replace('$', t.signed ? 's' : 'u'), args, result, lane, routing: LANEWISE,
      ...(impl ? { implements: impl } : {}), ...(f.imm ? { imm: f.imm(t) } : {}), features: ['neon'],
    });
    const shape = f.shape ?? 'dq';
    if (shape === 'narrow') {
      const h = { signed: t.signed, bits: t.bits / 2 } as ScalarType;
      const res = f.result === 'HU' ? withSign(h, false) : h;
      return [entry(f.c.replace('$', sfx), [view(t, 128)], view(res, 64), fillNarrow(f.lane, t), f.implements && fillNarrow(f.implements, t))];
    }
    const w = widen(t)!;
    if (shape === 'widen') return [entry(f.c.replace('$', sfx), (f.lane.includes('b_') ? [t, t] : [t]).map((x) => view(x, 64)), view(w, 128), fill(f.lane, t), f.implements && fill(f.implements, t))];
    if (shape === 'acc-widen') return [entry(f.c.replace('$', sfx), [view(w, 128), view(t, 64), view(t, 64)], view(w, 128), fill(f.lane, t), f.implements && fill(f.implements, t))];
    const operands = f.args?.length ?? (f.lane.includes('b_') ? 2 : 1);
    const res = f.result === 'U' ? withSign(t, false) : t;
    return ([64, 128] as const).map((bits) => entry((bits === 128 ? f.c : f.c.replace('q_', '_')).replace('$', sfx), Array.from({ length: operands }, () => view(t, bits)), view(res, bits), fill(f.lane, t), f.implements && fill(f.implements, t)));
  });
}

/** Moves that only change the view: halves, combining, broadcasts, reinterpretations. */
function neonMoves(): Intrinsic[] {
  return [...NEON_TYPES, 'u64', 'i64'].flatMap((tn): Intrinsic[] => {
    const t = T(tn);
    const sfx = neonSuffix(t);
    const base = { target: 'neon' as const, mnemonic: '', features: ['neon'] };
    return [
      { ...base, name: `vget_low_${sfx}`, args: [view(t, 128)], result: view(t, 64), lane: `a_${tn}`, routing: { k: 'half', part: 0 } },
      { ...base, name: `vget_high_${sfx}`, args: [view(t, 128)], result: view(t, 64), lane: `a_${tn}`, routing: { k: 'half', part: 1 } },
      { ...base, name: `vcombine_${sfx}`, args: [view(t, 64), view(t, 64)], result: view(t, 128), lane: `a_${tn}`, routing: { k: 'concat' } },
      ...(t.bits <= 32 ? [64, 128].map((bits): Intrinsic => ({ ...base, mnemonic: 'dup', name: `vdup${bits === 128 ? 'q' : ''}_n_${sfx}`, args: [], result: view(t, bits), imm: [Number(tmin(t)), Number(tmax(t))], lane: `${tn}(n_i64)`, routing: LANEWISE })) : []),
      // zip1/zip2 (AArch64): lane j of the low (high) halves of both operands, alternately; the
      // same routing as x86's unpacks over one 128-bit block.
      ...(t.bits <= 32 ? ([false, true] as const).map((high): Intrinsic => ({ ...base, mnemonic: high ? 'zip2' : 'zip1', name: `vzip${high ? 2 : 1}q_${sfx}`, args: [view(t, 128), view(t, 128)], result: view(t, 128), lane: `a_${tn}`, routing: { k: 'unpack', high } })) : []),
      ...(t.bits <= 32 ? [{ ...base, name: `vreinterpretq_${neonSuffix(withSign(t, !t.signed))}_${sfx}`, args: [view(t, 128)], result: view(withSign(t, !t.signed), 128), lane: `${typeName(withSign(t, !t.signed))}(a_${tn})`, routing: LANEWISE }] : []),
    ];
  });
}

// ---- Four-way dot products: x86 VNNI (vpdpbusd) and Arm's dot product extension (sdot/udot) ----

/** The sum of the four products of lane quad i, in `acc`'s type (formula names b … i, see `quads`). */
const quadSum = (acc: string, x: string, y: string): string =>
  ['b', 'd', 'f', 'h'].map((p, k) => `${acc}(${p}_${x}) * ${acc}(${'cegi'[k]}_${y})`).join(' + ');

/**
 * Each 32-bit lane adds to its accumulator the four products of its four 8-bit lane pairs (Intel SDM
 * VPDPBUSD: unsigned bytes times signed bytes, the sum wrapping, or saturating for VPDPBUSDS; Arm ARM
 * SDOT/UDOT: both signed or both unsigned, wrapping). The products and their sum fit in 32 bits
 * (4 · 255 · 128 < 2^31), so only the accumulation wraps or saturates.
 */
function dotQuads(): Intrinsic[] {
  const quads: Routing = { k: 'quads' };
  const x86 = ([128, 256, 512] as const).flatMap((w) =>
    (['dpbusd', 'dpbusds'] as const).flatMap((op) => {
      const sum = quadSum('i64', 'u8', 'i8');
      const lane = op === 'dpbusd' ? `a_i32 + (${quadSum('i32', 'u8', 'i8')})` : `i32(min(max(i64(a_i32) + (${sum}), ${tmin(T('i32'))}), ${tmax(T('i32'))}))`;
      // AVX-VNNI has the VEX forms (the _avx names) at 128 and 256 bits; AVX-512 VNNI the EVEX forms.
      const forms: [string, readonly string[]][] = [[`${PREFIX[w]}${op}_epi32`, ['avx512f', 'avx512vnni', ...(w === 512 ? [] : ['avx512vl'])]], ...(w === 512 ? [] : [[`${PREFIX[w]}${op}_avx_epi32`, ['avxvnni']] as [string, readonly string[]]])];
      return forms.map(([name, features]): Intrinsic => ({
        name, target: x86Target(w), mnemonic: `vp${op}`, args: [view(T('i32'), w), view(T('u8'), w), view(T('i8'), w)], result: view(T('i32'), w), lane, routing: quads, features,
      }));
    }),
  );
  const neon = (['i8', 'u8'] as const).flatMap((tn) =>
    ([64, 128] as const).map((bits): Intrinsic => {
      const t = T(tn);
      const acc = withSign(T('u32'), t.signed);
      return {
        name: `vdot${bits === 128 ? 'q' : ''}_${neonSuffix(acc)}`, target: 'neon', mnemonic: t.signed ? 'sdot' : 'udot',
        args: [view(acc, bits), view(t, bits), view(t, bits)], result: view(acc, bits), lane: `a_${typeName(acc)} + (${quadSum(typeName(acc), tn, tn)})`, routing: quads, features: ['neon', 'dotprod'],
      };
    }),
  );
  return [...x86, ...neon];
}

// implements [FPIR-FAMILIES]
/** Every generated entry: x86 families, widening and narrowing moves, broadcasts, Neon families and moves. */
export function generatedIntrinsics(): Intrinsic[] {
  return [...X86_FAMILIES.flatMap(x86Entries), ...x86Extends(), ...x86Narrows(), ...x86Set1(), ...NEON_FAMILIES.flatMap(neonEntries), ...neonMoves(), ...dotQuads()];
}
