// Soundness of 𝓘 (fig. 2.10b): for random expressions, random symbolic intervals for their
// variables (ends in a parameter p, possibly infinite) and random environments, every integer
// value of the expression lies in the computed interval. Plus one example per rule.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Expr, type OpName, OP_ARITY, cst, op, vr } from '../../src/expr/ast.js';
import { evalExpr } from '../../src/expr/eval.js';
import { printExpr } from '../../src/expr/print.js';
import { parseExprText } from '../../src/expr/parse.js';
import { type Int, type Value, isError } from '../../src/expr/value.js';
import { type Interval, type IntervalEnv, TOP, evalInterval, point } from '../../src/expr/interval.js';
import { simplify } from '../../src/expr/symbolic.js';

const VARS = ['a', 'b', 'c'];
const OPS = Object.keys(OP_ARITY) as OpName[];

const arbLeaf: fc.Arbitrary<Expr> = fc.oneof(
  fc.constantFrom(...VARS).map(vr),
  fc.constant(vr('p')),
  fc.integer({ min: -6, max: 6 }).map((n) => cst(n)),
  fc.constantFrom(...VARS).map((v) => ({ k: 'access', func: 'g', args: [vr(v)] }) as Expr),
);
const arbExpr: fc.Arbitrary<Expr> = fc.letrec<{ e: Expr }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    arbLeaf,
    fc.constantFrom(...OPS).chain((o) => fc.array(tie('e'), { minLength: OP_ARITY[o], maxLength: OP_ARITY[o] }).map((args) => op(o, ...args))),
  ),
})).e;

/** An end: p + k, a constant k, or an infinity (null). */
const arbEnd = fc.oneof(
  fc.integer({ min: -5, max: 5 }).map((k): Expr | null => op('+', vr('p'), cst(k))),
  fc.integer({ min: -5, max: 5 }).map((k): Expr | null => cst(k)),
  fc.constant<Expr | null>(null),
);
const arbBox = fc.tuple(...VARS.map(() => fc.tuple(arbEnd, arbEnd)));

const env = (box: readonly (readonly [Expr | null, Expr | null])[]): IntervalEnv => ({
  variable: (name) => {
    const i = VARS.indexOf(name);
    return i >= 0 ? { lo: box[i]![0], hi: box[i]![1] } : point(vr(name));
  },
  hole: () => TOP,
  access: () => TOP,
});

const at = (e: Expr, p: Int): Value => evalExpr(e, new Map([['p', p]]));

/** Concrete values for a, b, c inside their intervals at this p, or undefined when one is empty. */
function pick(box: readonly (readonly [Expr | null, Expr | null])[], p: Int, offsets: readonly number[]): Map<string, Value> | undefined {
  const m = new Map<string, Value>([['p', p]]);
  for (let i = 0; i < VARS.length; i++) {
    const [lo, hi] = box[i]!;
    const l = lo === null ? undefined : (at(lo, p) as number);
    const h = hi === null ? undefined : (at(hi, p) as number);
    if (l !== undefined && h !== undefined && l > h) return undefined;
    const off = offsets[i]!;
    const v = l !== undefined && h !== undefined ? l + (Math.abs(off) % (h - l + 1)) : l !== undefined ? l + Math.abs(off) : h !== undefined ? h - Math.abs(off) : off;
    m.set(VARS[i]!, v);
  }
  return m;
}

const within = (v: Int, iv: Interval, p: Int): boolean =>
  (iv.lo === null || (at(iv.lo, p) as Int) <= v) && (iv.hi === null || v <= (at(iv.hi, p) as Int));

describe('interval arithmetic 𝓘', () => {
  it('is sound: every integer value of e lies in 𝓘(e)', () => {
    fc.assert(
      fc.property(
        arbExpr, arbBox, fc.integer({ min: -8, max: 8 }), fc.array(fc.integer({ min: -40, max: 40 }), { minLength: 3, maxLength: 3 }),
        fc.func(fc.integer({ min: -50, max: 50 })),
        (e, box, p, offsets, g) => {
          const values = pick(box, p, offsets);
          fc.pre(values !== undefined);
          const iv = evalInterval(e, env(box));
          const v = evalExpr(e, values!, { access: (_f, args) => (args.some(isError) ? args.find(isError)! : g(args)) });
          if (isError(v)) return; // error values are in no interval (def. 2.13 treats them as out of bounds)
          expect(within(v, iv, p), `${printExpr(e, 'tgt')} = ${v} ∉ [${iv.lo && printExpr(iv.lo, 'tgt')}, ${iv.hi && printExpr(iv.hi, 'tgt')}]`).toBe(true);
        },
      ),
      { numRuns: 3000, seed: 7 },
    );
  });

  it('simplification preserves values', () => {
    fc.assert(
      fc.property(arbExpr, fc.integer({ min: -8, max: 8 }), fc.array(fc.integer({ min: -9, max: 9 }), { minLength: 3, maxLength: 3 }), (e, p, vs) => {
        const m = new Map<string, Value>([['p', p], ...VARS.map((v, i) => [v, vs[i]!] as const)]);
        const hooks = { access: (_f: string, args: readonly Value[]) => args[0]! };
        expect(evalExpr(simplify(e), m, hooks)).toBe(evalExpr(e, m, hooks));
      }),
      { numRuns: 3000, seed: 8 },
    );
  });
});

describe('interval rules', () => {
  const x: Interval = { lo: cst(0), hi: cst(5) };
  const e = (s: string) => parseExprText(s, 'tgt');
  const ev = (s: string, iv: Interval = x): [string | null, string | null] => {
    const r = evalInterval(e(s), { variable: (n) => (n === 'x' ? iv : point(vr(n))), hole: () => TOP, access: () => TOP });
    return [r.lo && printExpr(r.lo, 'tgt'), r.hi && printExpr(r.hi, 'tgt')];
  };
  it('[I-CONST] [I-VAR] [I-ADD] [I-SUB]', () => {
    expect(ev('7')).toEqual(['7', '7']);
    expect(ev('x + 1')).toEqual(['1', '6']);
    expect(ev('x - x')).toEqual(['-5', '5']); // the dependency problem: β0 does not correlate
    expect(ev('n + x')).toEqual(['n', 'n + 5']);
  });
  it('[I-MUL] scales by constants and takes corners otherwise', () => {
    expect(ev('x * -2')).toEqual(['-10', '0']);
    expect(ev('x * n')).toEqual(['min(0, 5 * n)', 'max(0, 5 * n)']);
  });
  it('[I-DIV] by a positive constant, by zero, and by an unknown divisor', () => {
    expect(ev('x / 2')).toEqual(['0', '2']);
    expect(ev('x / -2')).toEqual(['-2', '0']);
    expect(ev('x / 0')).toEqual(['0', '0']);
    // |a div b| ≤ |a|: [−M, M] with M = 5. Fig. 2.10b's length 2M − 1 would end at M − 2 = 3,
    // yet 5 div 1 = 5.
    expect(ev('x / n')).toEqual(['-5', '5']);
    expect(evalExpr(e('x / n'), new Map([['x', 5], ['n', 1]]))).toBe(5);
  });
  it('[I-MOD] lies in [0, |b| − 1]', () => {
    expect(ev('x % 3')).toEqual(['0', '2']);
    expect(ev('x % -3')).toEqual(['0', '2']);
    expect(ev('x % x')).toEqual(['0', '4']);
  });
  it('[I-MINMAX] [I-SELECT] [I-CMP]', () => {
    expect(ev('min(x, 3)')).toEqual(['0', '3']);
    expect(ev('max(x, 3)')).toEqual(['3', '5']);
    expect(ev('select(n, x, 9)')).toEqual(['0', '9']);
    expect(ev('select(1, x, 9)')).toEqual(['0', '5']);
    expect(ev('x < n')).toEqual(['0', '1']);
  });
  it('[I-ACCESS] a func value is unknown to β0; infinite ends propagate', () => {
    const r = evalInterval(e('g[x] + 1'), { variable: () => x, hole: () => TOP, access: () => TOP });
    expect(r).toEqual(TOP);
    expect(ev('x + 1', { lo: cst(0), hi: null })).toEqual(['1', null]);
    expect(ev('x * -1', { lo: cst(0), hi: null })).toEqual([null, '0']);
  });
  it('with a memo, gives the same interval and evaluates a shared node once', () => {
    // ((a + 1) * (a + 1)) + ((a + 1) * (a + 1)), each product the same object: a tree of 3 levels, a DAG of 3 nodes
    const inner = op('+', vr('a'), cst(1));
    const sq = op('*', inner, inner);
    const sum = op('+', sq, sq);
    let reads = 0;
    const counting: IntervalEnv = { variable: (name) => (reads++, name === 'a' ? { lo: cst(-2), hi: vr('p') } : point(vr(name))), hole: () => TOP, access: () => TOP };
    const plain = evalInterval(sum, counting);
    const plainReads = reads;
    reads = 0;
    const memo = new Map<Expr, Interval>();
    const memoized = evalInterval(sum, counting, memo);
    expect(memoized).toEqual(plain);
    expect(plainReads).toBe(4);
    expect(reads).toBe(1);
    // every node asked again is answered from the memo
    expect(evalInterval(sq, counting, memo)).toBe(memo.get(sq));
    expect(reads).toBe(1);
  });
});
