// Each FPIR instruction at 8 bits, exhaustively, against an independent formula written with
// JavaScript numbers (Math.floor, explicit clamping), for every signedness combination it accepts.
import { describe, expect, it } from 'vitest';
import { parseFpir } from '../../src/fpir/parse.js';
import { evalLane } from '../../src/fpir/eval.js';
import { typeName } from '../../src/fpir/types.js';

const U8 = { lo: 0, hi: 255 };
const I8 = { lo: -128, hi: 127 };
const range = (t: 'u8' | 'i8') => (t === 'u8' ? U8 : I8);
const clampN = (v: number, t: { lo: number; hi: number }) => Math.min(t.hi, Math.max(t.lo, v));
const wrapN = (v: number, bits: number, signed: boolean) => {
  const m = 2 ** bits;
  const u = ((v % m) + m) % m;
  return signed && u >= m / 2 ? u - m : u;
};
const pow2 = (y: number) => 2 ** y;
const shiftN = (x: number, y: number) => (y >= 0 ? x * pow2(Math.min(y, 80)) : Math.floor(x / pow2(Math.min(-y, 80))));

/** Runs `text` (over x_T, y_U) on all 65 536 operand pairs and compares with `ref`. */
function exhaust2(text: string, t: 'u8' | 'i8', u: 'u8' | 'i8', ref: (x: number, y: number) => number): void {
  const e = parseFpir(text.replaceAll('T', t).replaceAll('U', u));
  const bad: string[] = [];
  for (let x = range(t).lo; x <= range(t).hi; x++) {
    for (let y = range(u).lo; y <= range(u).hi; y++) {
      const got = evalLane(e, (n) => BigInt(n.startsWith('x') ? x : y));
      const want = ref(x, y);
      if (got !== BigInt(want) && bad.length < 3) bad.push(`${text} at x=${x} y=${y}: ${got} ≠ ${want}`);
    }
  }
  expect(bad, `${text} with ${t}, ${u}: type ${typeName(e.type)}`).toEqual([]);
}

const SIGNS = [['u8', 'u8'], ['i8', 'i8']] as const;
const MIXED = [['u8', 'u8'], ['i8', 'i8'], ['u8', 'i8'], ['i8', 'u8']] as const;

describe('FPIR instructions at 8 bits, exhaustively', () => {
  it('FPIR-WIDENING-ADD, FPIR-WIDENING-SUB and FPIR-WIDENING-MUL are exact (any signedness mix)', () => {
    for (const [t, u] of MIXED) {
      exhaust2('widening_add(x_T, y_U)', t, u, (x, y) => x + y);
      exhaust2('widening_sub(x_T, y_U)', t, u, (x, y) => x - y);
      exhaust2('widening_mul(x_T, y_U)', t, u, (x, y) => x * y);
    }
  });
  it('FPIR-WIDENING-SHL and FPIR-WIDENING-SHR shift the widened value, negative amounts the other way', () => {
    for (const [t, u] of MIXED) {
      exhaust2('widening_shl(x_T, y_U)', t, u, (x, y) => wrapN(shiftN(x, y), 16, t === 'i8'));
      exhaust2('widening_shr(x_T, y_U)', t, u, (x, y) => wrapN(shiftN(x, -y), 16, t === 'i8'));
    }
  });
  it('FPIR-EXTENDING-ADD, FPIR-EXTENDING-SUB, FPIR-EXTENDING-MUL wrap in the wide operand type', () => {
    const e = parseFpir('extending_add(x_u16, y_i8)');
    expect(evalLane(e, (n) => (n === 'x_u16' ? 3n : -5n))).toBe(65534n);
    expect(evalLane(parseFpir('extending_sub(x_i16, y_u8)'), (n) => (n === 'x_i16' ? -32768n : 1n))).toBe(32767n);
    expect(evalLane(parseFpir('extending_mul(x_u16, y_u8)'), (n) => (n === 'x_u16' ? 300n : 255n))).toBe((300n * 255n) % 65536n);
  });
  it('FPIR-ABS and FPIR-ABSD are unsigned and exact', () => {
    exhaust2('abs(x_T)', 'i8', 'i8', (x) => Math.abs(x));
    for (const [t] of SIGNS) exhaust2('absd(x_T, y_T)', t, t, (x, y) => Math.abs(x - y));
  });
  it('FPIR-SATURATING-CAST and FPIR-SATURATING-NARROW clamp', () => {
    exhaust2('saturating_cast<u8>(x_T)', 'i8', 'i8', (x) => clampN(x, U8));
    exhaust2('saturating_cast<i8>(x_T)', 'u8', 'u8', (x) => clampN(x, I8));
    exhaust2('saturating_narrow(widening_mul(x_T, y_U))', 'i8', 'u8', (x, y) => clampN(x * y, I8));
  });
  it('FPIR-SATURATING-ADD and FPIR-SATURATING-SUB clamp the exact result', () => {
    for (const [t] of SIGNS) {
      exhaust2('saturating_add(x_T, y_T)', t, t, (x, y) => clampN(x + y, range(t)));
      exhaust2('saturating_sub(x_T, y_T)', t, t, (x, y) => clampN(x - y, range(t)));
    }
  });
  it('FPIR-HALVING-ADD, FPIR-HALVING-SUB and FPIR-ROUNDING-HALVING-ADD round down (halving_sub wraps when unsigned)', () => {
    for (const [t] of SIGNS) {
      exhaust2('halving_add(x_T, y_T)', t, t, (x, y) => Math.floor((x + y) / 2));
      exhaust2('halving_sub(x_T, y_T)', t, t, (x, y) => wrapN(Math.floor((x - y) / 2), 8, t === 'i8'));
      exhaust2('rounding_halving_add(x_T, y_T)', t, t, (x, y) => Math.floor((x + y + 1) / 2));
    }
  });
  it('FPIR-ROUNDING-SHR and FPIR-ROUNDING-SHL round half up; positive right shifts never leave the type', () => {
    for (const [t, u] of MIXED) {
      // For y > 0 the reference neither wraps nor clamps: the seed's saturating_narrow is unreachable there.
      const rshr = (x: number, y: number) => (y > 0 ? Math.floor((x + pow2(Math.min(y, 80) - 1)) / pow2(Math.min(y, 80))) : wrapN(shiftN(x, -y), 8, t === 'i8'));
      exhaust2('rounding_shr(x_T, y_U)', t, u, rshr);
      exhaust2('rounding_shl(x_T, y_U)', t, u, (x, y) => rshr(x, -y));
    }
  });
  it('FPIR-MUL-SHR and FPIR-ROUNDING-MUL-SHR saturate the shifted exact product', () => {
    const e = parseFpir('mul_shr(x_i8, y_i8, 7)');
    const r = parseFpir('rounding_mul_shr(x_i8, y_i8, 7)');
    for (let x = -128; x < 128; x++) {
      for (let y = -128; y < 128; y++) {
        const env = (n: string) => BigInt(n === 'x_i8' ? x : y);
        expect(evalLane(e, env)).toBe(BigInt(clampN(Math.floor((x * y) / 128), I8)));
        expect(evalLane(r, env)).toBe(BigInt(clampN(Math.floor((x * y + 64) / 128), I8)));
      }
    }
  });
  it('FPIR-SATURATING-SHL saturates the exact shifted value (amounts beyond the width too)', () => {
    for (const [t, u] of MIXED) exhaust2('saturating_shl(x_T, y_U)', t, u, (x, y) => clampN(shiftN(x, y), range(t)));
  });
});
