// The operator table checked inside campaigns: every operator of fig. 2.5b on random values —
// error values, integers near the edges of the safe range and far beyond it — against a reference
// written independently on bigints (def. 2.6 for errors, §2.9 for Euclidean div/mod with x / 0 = 0,
// 0/1 for truth values). The evaluators, the executors and the code generator all share the
// table, so a fault in it is a fault everywhere at once: the property compares it with a second
// reading of the semantics rather than with the components that use it.
//
// The same case also checks the interval rules of fig. 2.10b ([I-ADD] … [I-SELECT]) directly:
// each integer argument is widened into an interval around it (a point, or reaching below and
// above it, so negative, spanning and non-point divisors come up), and the operator's value must
// lie in the interval the rules give for the box. Whole pipelines almost never reach those cases.
//
// A check is a batch of such cases: one costs microseconds, while the campaign picks this property
// for one check in every dozen or so beside checks that run whole pipelines, so a single case per
// check left the rarer combinations (a sum crossing 2^53, a big dividend over a negative divisor)
// unreached in a minute's campaign. Values are also drawn at the edges of each representation the
// semantics meets (±2^31, ±2^53, ±2^63, each ±2, and 0, ±1), where rounding and sign mistakes show.
import fc from 'fast-check';
import { type Expr, type OpName, OP_ARITY, op, vr } from '../../expr/ast.js';
import { evalExpr } from '../../expr/eval.js';
import { type Interval, TOP, constInterval, evalInterval } from '../../expr/interval.js';
import { add, applyOp, sub } from '../../expr/ops.js';
import { E_MEM, E_RDOM, type Int, type Value, intFromString, isError, showValue, toBig } from '../../expr/value.js';
import { ALL_OPS, arbInt, arbValue } from '../arbitraries/expr.js';
import { type CheckResult, PASS, type Property } from '../property.js';

/** A check's cases; a failure shrinks to the cases that fail. */
export interface OperatorBatch {
  readonly items: readonly OperatorCase[];
}

export interface OperatorCase {
  readonly op: OpName;
  readonly args: readonly Value[];
  /** an interval per argument whose image under the interval rules is checked (absent in older reproducers) */
  readonly boxes?: readonly (readonly [Int, Int])[];
}

/** Euclidean division and remainder on bigints: 0 ≤ r < |b|, a = b·q + r; both 0 when b = 0. */
function euclid(a: bigint, b: bigint): { q: bigint; r: bigint } {
  if (b === 0n) return { q: 0n, r: 0n };
  const abs = b < 0n ? -b : b;
  const r = ((a % abs) + abs) % abs;
  return { q: (a - r) / b, r };
}

/** The reference: def. 2.6 (the greatest error wins), then the integer meaning of each operator. */
export function referenceOp(o: OpName, args: readonly Value[]): Value {
  const errs = args.filter(isError);
  if (errs.length > 0) return errs.some((e) => e.err === 'mem') ? E_MEM : E_RDOM;
  const [a, b, c] = args.map((x) => BigInt(x as number | bigint)) as [bigint, bigint, bigint];
  const t = (x: boolean) => (x ? 1n : 0n);
  const r: bigint = {
    '+': () => a + b, '-': () => a - b, '*': () => a * b, div: () => euclid(a, b).q, mod: () => euclid(a, b).r,
    or: () => t(a !== 0n || b !== 0n), and: () => t(a !== 0n && b !== 0n), not: () => t(a === 0n),
    '<': () => t(a < b), '>': () => t(a > b), '=': () => t(a === b),
    select: () => (a !== 0n ? b : c), min: () => (a < b ? a : b), max: () => (a > b ? a : b),
  }[o]();
  return intFromString(r.toString());
}

const show = (c: OperatorCase) => `${c.op}(${c.args.map(showValue).join(', ')})`;

const ARG_NAMES = ['a', 'b', 'c'];

/** The box of a case as intervals. */
const boxOf = (c: OperatorCase): Interval[] | undefined => c.boxes?.map(([lo, hi]) => constInterval(lo, hi));

/** An end of an interval over constants, as an integer (null: unbounded). */
const endValue = (e: Expr | null): bigint | null => {
  if (e === null) return null;
  const v = evalExpr(e, new Map());
  return isError(v) ? null : toBig(v);
};

/**
 * Points of the box where the value is checked: per argument both ends, 0 when the interval spans
 * it (where div, mod, select and the logic operators change behaviour), and the case's own
 * argument when it lies inside.
 */
function checkPoints(c: OperatorCase, box: readonly Interval[]): Int[][] {
  const per = box.map((b, i) => {
    const [lo, hi] = [endValue(b.lo)!, endValue(b.hi)!];
    const own = c.args[i]!;
    const inside = (v: bigint) => lo <= v && v <= hi;
    const pts = [lo, hi, 0n, ...(isError(own) ? [] : [toBig(own)])].filter(inside);
    return [...new Set(pts)].map((v) => intFromString(v.toString()) as Int);
  });
  return per.reduce<Int[][]>((acc, vs) => acc.flatMap((p) => vs.map((v) => [...p, v])), [[]]);
}

/** Does 𝓘(op(a, b, c)) over the box contain the operator's value at every checked point of it? */
function intervalBreach(c: OperatorCase): string | undefined {
  const box = boxOf(c);
  if (box === undefined) return undefined;
  const e = op(c.op, ...c.args.map((_a, i) => vr(ARG_NAMES[i]!)));
  const iv = evalInterval(e, { variable: (n) => box[ARG_NAMES.indexOf(n)] ?? TOP, hole: () => TOP, access: () => TOP });
  const [lo, hi] = [endValue(iv.lo), endValue(iv.hi)];
  for (const at of checkPoints(c, box)) {
    const value = applyOp(c.op, at);
    if (isError(value)) continue;
    const v = toBig(value);
    if ((lo === null || lo <= v) && (hi === null || v <= hi)) continue;
    const shown = box.map((b, i) => `${ARG_NAMES[i]} ∈ [${endValue(b.lo)}, ${endValue(b.hi)}]`).join(', ');
    return `the interval rules give [${lo ?? '−∞'}, ${hi ?? '∞'}] for ${c.op} over ${shown}, which misses ${showValue(value)} = ${show({ op: c.op, args: at })}`;
  }
  return undefined;
}

/** How far an interval reaches on one side of a point: often nothing, mostly a few, sometimes far. */
const arbReach = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 1000 }));

/**
 * An argument's box: around the argument itself (huge values included), or small near 0 — where
 * signs change, so negative, spanning and non-point divisors and conditions spanning 0 are common.
 */
const arbBox = (arg: Value): fc.Arbitrary<readonly [Int, Int]> => fc.oneof(
  ...(isError(arg) ? [] : [fc.tuple(arbReach, arbReach).map(([below, above]) => [sub(arg, below), add(arg, above)] as const)]),
  fc.tuple(fc.integer({ min: -12, max: 12 }), fc.integer({ min: 0, max: 12 })).map(([lo, len]) => [lo, lo + len] as const),
);

/** Integers at the edges of 32-bit, safe-float and 64-bit integers, and 0, ±1. */
const arbEdgeInt: fc.Arbitrary<Int> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom<Int>(0, 1, -1) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(31n, 53n, 63n), fc.boolean(), fc.integer({ min: -2, max: 2 }))
    .map(([k, neg, d]) => intFromString(((neg ? -1n : 1n) * (1n << k) + BigInt(d)).toString()) as Int) },
);

const arbArg: fc.Arbitrary<Value> = fc.oneof({ weight: 1, arbitrary: arbValue }, { weight: 1, arbitrary: arbEdgeInt as fc.Arbitrary<Value> });

/**
 * A sum or difference whose result, not only an operand, lands at an edge (the second operand is
 * solved for it): crossing 2^53 from two safe operands is where a float sum silently rounds.
 */
const arbEdgeResult: fc.Arbitrary<readonly [OpName, Value[]]> = fc.tuple(fc.constantFrom<OpName>('+', '-'), arbInt, arbEdgeInt, fc.integer({ min: -3, max: 3 }))
  .map(([o, a, r, d]) => {
    const target = add(r, d) as Int;
    return [o, [a, o === '+' ? sub(target, a) : sub(a, target)]] as const;
  });

/**
 * A quotient or remainder by 0 (§2.9: x div 0 = x mod 0 = 0), of any dividend: each representation
 * of the dividend takes its own path to the zero test, and a random divisor is 0 too rarely for a
 * big dividend to meet it in a minute's campaign.
 */
const arbByZero: fc.Arbitrary<readonly [OpName, Value[]]> = fc.tuple(fc.constantFrom<OpName>('div', 'mod'), arbArg).map(([o, a]) => [o, [a, 0]] as const);

/**
 * A binary operator whose second argument is its first, or one off it: where a comparison, a min or
 * a max turns, so an off-by-one comparison shows (two independent draws meet so rarely that a
 * campaign's minute may never see one).
 */
const arbNeighbours: fc.Arbitrary<readonly [OpName, Value[]]> = fc.tuple(
  fc.constantFrom(...ALL_OPS.filter((o) => OP_ARITY[o] === 2)), arbArg, fc.integer({ min: -1, max: 1 }),
).map(([o, a, d]) => [o, [a, isError(a) ? a : add(a, d)]] as const);

const arbOpArgs: fc.Arbitrary<readonly [OpName, Value[]]> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ALL_OPS).chain((o) => fc.array(arbArg, { minLength: OP_ARITY[o], maxLength: OP_ARITY[o] }).map((args) => [o, args] as const)) },
  { weight: 1, arbitrary: arbEdgeResult },
  { weight: 1, arbitrary: arbByZero },
  { weight: 1, arbitrary: arbNeighbours },
);

const arbCase: fc.Arbitrary<OperatorCase> = arbOpArgs.chain(([o, args]) => fc.tuple(...args.map(arbBox)).map((boxes) => ({ op: o, args, boxes })));

/** Cases per check: 128 cost about a millisecond, a tenth of what the average check of a campaign takes. */
const BATCH = 128;

/** One case's verdict. */
function checkOne(c: OperatorCase): CheckResult {
  const got = applyOp(c.op, c.args);
  const want = referenceOp(c.op, c.args);
  // Values are canonical (value.ts): one representation per integer, so === is equality.
  if (got !== want) return { status: 'fail', verdict: 'operator', expected: `${show(c)} = ${showValue(want)}`, actual: `the operator table gives ${showValue(got)}${typeof got !== typeof want && !isError(got) ? ` (as a ${typeof got}, not canonical)` : ''}` };
  const breach = intervalBreach(c);
  return breach === undefined ? PASS : { status: 'fail', verdict: 'interval', expected: 'the value of an operator lies in the interval its rule gives for a box around its arguments (fig. 2.10b)', actual: breach };
}

/** The cases of a reproducer apart (older reproducers hold one). */
const ITEM_SEP = '|';

export const operators: Property<OperatorBatch, OperatorBatch> = {
  name: 'operators',
  summary: 'fig. 2.5b, def. 2.6, §2.9: the shared operator table agrees with an independent bigint reference on every operator, error values and huge integers included',
  arbitrary: () => fc.array(arbCase, { minLength: 1, maxLength: BATCH, size: 'max' }).map((items) => ({ items })),
  concretize: (g) => g,
  check(b) {
    for (const c of b.items) {
      const r = checkOne(c);
      if (r.status !== 'pass') return r;
    }
    return PASS;
  },
  encode: (b) => ({
    extra: {
      op: b.items.map((c) => c.op).join(ITEM_SEP),
      args: b.items.map((c) => c.args.map(showValue).join(' ')).join(ITEM_SEP),
      ...(b.items.every((c) => c.boxes) ? { boxes: b.items.map((c) => c.boxes!.map(([lo, hi]) => `${lo}:${hi}`).join(' ')).join(ITEM_SEP) } : {}),
    },
  }),
  decode(t) {
    const ops = (t.extra?.op ?? '').split(ITEM_SEP);
    const args = (t.extra?.args ?? '').split(ITEM_SEP);
    const boxes = t.extra?.boxes?.split(ITEM_SEP);
    return {
      items: ops.map((o, i) => {
        const as = (args[i] ?? '').split(' ').filter(Boolean).map((s): Value => (s === 'ε_rdom' ? E_RDOM : s === 'ε_mem' ? E_MEM : intFromString(s)));
        const bs = boxes?.[i]?.split(' ').filter(Boolean).map((x) => x.split(':').map((e) => intFromString(e) as Int) as [Int, Int]);
        return { op: o as OpName, args: as, ...(bs ? { boxes: bs } : {}) };
      }),
    };
  },
  shape: (b) => b.items.map((c) => `${c.op}/${c.args.map((a) => (isError(a) ? showValue(a) : typeof a)).join(',')}`).join(' '),
};
