// Lifting and lowering rules: FPIR-LIFT on the Sobel kernel (Pitchfork fig. 2), FPIR-VERIFY on
// shipped rules and on the planted faults (FPIR-FAULTS), FPIR-LOWER with FPIR-BOUNDS proving a
// predicated rule, FPIR-MATCH for constant wildcards, and the commands.
import { describe, expect, it } from 'vitest';
import { lift } from '../../src/fpir/lift.js';
import { LIFTING_RULES } from '../../src/fpir/lift-rules.js';
import { LOWERING_RULES } from '../../src/fpir/lower-rules.js';
import { parseFpir } from '../../src/fpir/parse.js';
import { printFpir } from '../../src/fpir/print.js';
import { verifyLifting, verifyLowering } from '../../src/fpir/verify-rules.js';
import { FPIR_FAULTS } from '../../src/fpir/faults.js';
import { selectInstructions, summarize } from '../../src/fpir/select.js';
import { boundsOf } from '../../src/fpir/bounds.js';
import { type Binding, instantiate, match } from '../../src/fpir/match.js';
import { runCli } from '../support/cli.js';

const lowering = (name: string) => LOWERING_RULES.find((r) => r.name === name)!;
const SOBEL_IN = (() => {
  const k = (a: string, b: string, c: string) => `(u16(${a}) + u16(${c}) + u16(${b}) * 2)`;
  const [p, q] = [k('a_u8', 'b_u8', 'c_u8'), k('d_u8', 'e_u8', 'f_u8')];
  return `u8(min(select(${p} > ${q}, ${p} - ${q}, ${q} - ${p}), 255))`;
})();

describe('FPIR-LIFT', () => {
  it('lifts the Sobel kernel as Pitchfork fig. 2c shows', () => {
    const r = lift(parseFpir(SOBEL_IN));
    expect(printFpir(r.expr)).toBe('saturating_cast<u8>(absd(widening_add(a_u8, c_u8) + widening_shl(b_u8, 1), widening_add(d_u8, f_u8) + widening_shl(e_u8, 1)))');
    expect(r.applied.map((a) => a.rule)).toContain('lift-saturating-cast-min-u8');
  });
  it('lifts a saturating add in three steps, and FPIR-MATCH re-types constant wildcards only when they fit', () => {
    expect(lift(parseFpir('u8(min(u16(x_u8) + u16(y_u8), 255))')).applied.map((a) => a.rule)).toEqual(['lift-widening-add-u8', 'lift-saturating-cast-min-u8', 'lift-saturating-add-u8']);
    const b: Binding = new Map();
    expect(match(parseFpir('u16(x_u8) << c0_u16'), parseFpir('u16(y_u8) << 300'), b)).toBe(true);
    expect(instantiate(parseFpir('widening_shl(x_u8, c0_u8)'), b)).toBeUndefined();
  });
});

describe('FPIR-VERIFY', () => {
  it('proves 8-bit lifting rules by exhaustion and samples wider ones', () => {
    expect(verifyLifting(LIFTING_RULES.find((r) => r.name === 'lift-saturating-add-u8')!).status).toBe('proved');
    expect(verifyLifting(LIFTING_RULES.find((r) => r.name === 'lift-halving-add-div-i16')!, { samples: 2000 }).status).toBe('sampled');
  });
  it('a wrong lifting rule is refuted (the garbled widening_add of our copy of table 1)', () => {
    const v = verifyLifting({ name: 'garbled', lhs: 'u16(x_u8) + u16(y_u8)', rhs: 'widening_mul(x_u8, y_u8)' });
    expect(v.status).toBe('refuted');
    expect(v.counterexample).toMatch(/x_u8=/);
  });
  it('proves 8-bit lowering rules on whole vectors and checks the pack fix-up by tags', () => {
    expect(verifyLowering(lowering('lower-avx2-absd-u8')).status).toBe('proved');
    expect(verifyLowering(lowering('lower-neon-umlal-shl-1'), { samples: 2000 }).status).toBe('sampled');
    expect(verifyLowering(lowering('lower-avx2-saturating-cast-i16-u8')).status).toBe('proved');
  });
});

describe('FPIR-FAULTS are refuted by rule verification', () => {
  const planted = (name: string) => {
    const f = FPIR_FAULTS.find((x) => x.name === name)!;
    const changed = f.rules(LOWERING_RULES).filter((r, i) => r !== LOWERING_RULES[i]);
    expect(changed).toHaveLength(1);
    return verifyLowering(changed[0]!, { samples: 2000 });
  };
  it('vpsubsw for an unsigned saturating subtract', () => {
    const v = planted('fpir-vpsubsw-unsigned');
    expect(v.status).toBe('refuted');
    expect(v.counterexample).toMatch(/absd\(x_u16, y_u16\)/);
  });
  it('vpackuswb without its signedness precondition', () => {
    expect(planted('fpir-packus-unsigned-unguarded')).toMatchObject({ status: 'refuted' });
  });
  it('an AVX2 pack without its vpermq fix-up (found by tags before any value)', () => {
    const v = planted('fpir-pack-without-vpermq');
    expect(v.status).toBe('refuted');
    expect(v.counterexample).toMatch(/routed out of order/);
  });
});

describe('FPIR-LOWER', () => {
  it('selects vpackuswb for a u16 saturating cast only when FPIR-BOUNDS prove x ≤ 32767', () => {
    const sobel = lift(parseFpir(SOBEL_IN)).expr;
    expect(boundsOf(sobel.k === 'fp' ? sobel.args[0]! : sobel)).toEqual([0n, 1020n]);
    expect(summarize(selectInstructions(sobel, 'avx2')).rules[0]).toBe('lower-avx2-saturating-cast-u16-u8');
    const s = summarize(selectInstructions(parseFpir('saturating_cast<u8>(x_u16)'), 'avx2'));
    expect(s.rules).toEqual([]);
    expect(s.portable).toBe(1);
  });
  it('refsem fpir shows the lifted FPIR, the rules and the instructions; bad targets are named', async () => {
    const r = await runCli(['fpir', 'u8(min(u16(x_u8) + u16(y_u8), 255))', '--target', 'avx2']);
    expect(r.stdout).toContain('lifted:   saturating_add(x_u8, y_u8)');
    expect(r.stdout).toContain('_mm256_adds_epu8(x_u8.0, y_u8.0)    # lower-avx2-saturating-add-u8');
    const bad = await runCli(['fpir', 'x_u8', '--target', 'sse']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('the targets are: avx2, avx512, neon');
    const fault = await runCli(['fpir-verify', '--fault', 'nope']);
    expect(fault.code).toBe(2);
    expect(fault.stderr).toContain('fpir-vpsubsw-unsigned');
    const typed = await runCli(['fpir', 'x_u8 + y_u16', '--target', 'neon']);
    expect(typed.stderr).toMatch(/^<expr>:1:6: error: \[FPIR-TYPING\]/);
  });
});
