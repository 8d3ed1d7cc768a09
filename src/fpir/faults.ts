// Planted faults of the instruction selector (spec/fpir.md, [FPIR-FAULTS]), each modelled on a
// real mistake: the first is the compound absd rule as our copy of Pitchfork §3.3 prints it. A
// fault replaces lowering rules by faulty copies (or switches the portable C emitter's halving
// to C's `/`); rule verification and the `fpir` fuzz property must both find it.
import { LOWERING_RULES, type LoweringRule } from './lower-rules.js';

export interface FpirFault {
  readonly name: string;
  readonly history: string;
  /** the rules with the fault planted */
  readonly rules: (rules: readonly LoweringRule[]) => LoweringRule[];
  /** the portable C emitter divides with C's truncating `/` in the halving instructions */
  readonly truncatingHalving?: boolean;
}

const replace = (name: string, change: Partial<LoweringRule>) => (rules: readonly LoweringRule[]): LoweringRule[] =>
  rules.map((r) => (r.name === name ? { name: r.name, target: r.target, lhs: r.lhs, rhs: change.rhs ?? r.rhs, ...('pre' in change ? (change.pre ? { pre: change.pre } : {}) : r.pre ? { pre: r.pre } : {}) } : r));

// implements [FPIR-FAULTS]
export const FPIR_FAULTS: readonly FpirFault[] = [
  {
    name: 'fpir-vpsubsw-unsigned',
    history: "the signed saturating vpsubsw used for an unsigned saturating subtract (Pitchfork §3.3 prints absd(x_u16, y_u16) -> vpor(vpsubsw(x, y), vpsubsw(y, x)))",
    rules: replace('lower-avx2-absd-u16', { rhs: '[_mm256_or_si256(_mm256_subs_epi16(x.0, y.0), _mm256_subs_epi16(y.0, x.0)), _mm256_or_si256(_mm256_subs_epi16(x.1, y.1), _mm256_subs_epi16(y.1, x.1))]' }),
  },
  {
    name: 'fpir-packus-unsigned-unguarded',
    history: 'vpackuswb used for saturating_cast<u8>(x_u16) without the precondition x ≤ 32767: it reads its operands as signed',
    rules: replace('lower-avx2-saturating-cast-u16-u8', { pre: undefined }),
  },
  {
    name: 'fpir-pack-without-vpermq',
    history: 'an AVX2 pack without the vpermq that puts its 128-bit blocks back in order',
    rules: replace('lower-avx2-saturating-cast-i16-u8', { rhs: '_mm256_packus_epi16(x.0, x.1)' }),
  },
  {
    name: 'fpir-truncating-halving',
    history: "C's truncating / in the portable halving instructions: ⌊(x + y) / 2⌋ rounds toward zero for negative sums",
    rules: (rules) => [...rules],
    truncatingHalving: true,
  },
];

export function plantedRules(fault: FpirFault | undefined): readonly LoweringRule[] {
  return fault ? fault.rules(LOWERING_RULES) : LOWERING_RULES;
}
