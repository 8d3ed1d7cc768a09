// Random FPIR expressions for the `fpir` fuzz property (spec/fpir.md, [FPIR-RUN]): well typed by
// construction, over u8, i8, u16 and i16 (where the lowering rules are), biased toward the shapes
// the rules match so that selected intrinsics, not only portable lanes, get exercised: half the
// nodes are the left side of an x86 lowering rule, its wildcards filled with random operands.
import type { Rng } from '../rng.js';
import type { FExpr, FpOp } from './ast.js';
import { parseLeft } from './lift.js';
import { LOWERING_RULES } from './lower-rules.js';
import { baseName, isConstWildcard } from './match.js';
import { boundaryValues, sampleValue } from './sample.js';
import { mkCast, mkFp, mkPrim } from './typing.js';
import { type ScalarType, inRange, narrow, typeEq, typeName, widen, withSign } from './types.js';

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.below(xs.length)]!;
const T8_16: readonly ScalarType[] = [
  { signed: false, bits: 8 }, { signed: true, bits: 8 }, { signed: false, bits: 16 }, { signed: true, bits: 16 },
];
const SAME: readonly FpOp[] = ['saturating_add', 'saturating_sub', 'halving_add', 'halving_sub', 'rounding_halving_add'];

function leaf(t: ScalarType, rng: Rng): FExpr {
  if (rng.below(5) === 0) return { k: 'const', value: pick(rng, boundaryValues(t)), type: t };
  return { k: 'var', name: `${pick(rng, ['a', 'b', 'c'])}_${typeName(t)}`, type: t };
}

const X86_RULES = LOWERING_RULES.filter((r) => r.target !== 'neon');

/** The x86 rules' left sides, each once (AVX2 and AVX-512 share most of theirs). */
const X86_SHAPES: readonly FExpr[] = [...new Map(X86_RULES.map((r) => [r.lhs, parseLeft(r).lhs])).values()];

/** The integers an expression mentions. */
const constantsIn = (e: FExpr): bigint[] => (e.k === 'const' ? [e.value] : e.k === 'var' ? [] : e.k === 'cast' ? constantsIn(e.arg) : e.args.flatMap(constantsIn));

/**
 * Per left side, the constants its rules' preconditions compare with, each with its neighbours: a
 * constant wildcard drawn there meets the edge where a precondition starts or stops holding, where
 * instruction selection decides between a rule and the portable code ([FPIR-LOWER]).
 */
const PRE_EDGES: ReadonlyMap<FExpr, readonly bigint[]> = new Map(X86_SHAPES.map((shape) => {
  const pres = X86_RULES.filter((r) => parseLeft(r).lhs === shape).flatMap((r) => (parseLeft(r).pre ? [parseLeft(r).pre!] : []));
  return [shape, [...new Set(pres.flatMap(constantsIn).flatMap((k) => [k - 1n, k, k + 1n]))]];
}));

/**
 * A small shift amount or a boundary value: what a rule's constant wildcard meets in practice; or,
 * for a rule with a precondition, a value at its edges.
 */
function constantOf(t: ScalarType, rng: Rng, edges: readonly bigint[]): bigint {
  const near = edges.filter((k) => inRange(k, t));
  if (near.length > 0 && rng.below(3) === 0) return pick(rng, near);
  return rng.below(2) === 0 ? BigInt(rng.below(t.bits)) : pick(rng, boundaryValues(t));
}

/** `p` with each wildcard replaced: an operand from `sub` (the same at each occurrence) or a constant. */
function fillShape(p: FExpr, sub: (u: ScalarType) => FExpr, rng: Rng, edges: readonly bigint[] = [], bound = new Map<string, FExpr>()): FExpr {
  switch (p.k) {
    case 'var': {
      let x = bound.get(baseName(p.name));
      if (!x) bound.set(baseName(p.name), (x = isConstWildcard(p.name) ? { k: 'const', value: constantOf(p.type, rng, edges), type: p.type } : sub(p.type)));
      return x;
    }
    case 'const':
      return p;
    case 'cast':
      return { ...p, arg: fillShape(p.arg, sub, rng, edges, bound) };
    default:
      return { ...p, args: p.args.map((a) => fillShape(a, sub, rng, edges, bound)) } as FExpr;
  }
}

/** An expression of type `t` of at most `depth` levels. */
export function randomFpir(t: ScalarType, depth: number, rng: Rng): FExpr {
  if (depth <= 0) return leaf(t, rng);
  const sub = (u: ScalarType) => randomFpir(u, depth - 1, rng);
  const shapes = X86_SHAPES.filter((p) => typeEq(p.type, t));
  if (shapes.length > 0 && rng.below(2) === 0) {
    const shape = pick(rng, shapes);
    return fillShape(shape, sub, rng, PRE_EDGES.get(shape));
  }
  const n = narrow(t);
  const w = widen(t);
  const choices: (() => FExpr)[] = [
    () => mkFp(pick(rng, SAME), [sub(t), sub(t)], undefined),
    () => mkPrim(pick(rng, ['+', '-', 'min', 'max'] as const), sub(t), sub(t)),
    () => leaf(t, rng),
  ];
  if (!t.signed) choices.push(() => mkFp('absd', [sub(t), sub(t)], undefined));
  if (!t.signed) choices.push(() => mkFp('abs', [sub(withSign(t, true))], undefined));
  if (n) {
    const un = withSign(n, false);
    if (t.signed) {
      choices.push(() => mkFp('widening_sub', [sub(un), sub(un)], undefined));
      choices.push(() => mkFp('widening_add', [sub(n), sub(n)], undefined));
    } else {
      choices.push(() => mkFp('widening_add', [sub(un), sub(un)], undefined));
      choices.push(() => mkFp('widening_shl', [sub(un), { k: 'const', value: BigInt(rng.below(4)), type: un }], undefined));
    }
  }
  if (w) choices.push(() => mkFp('saturating_cast', [sub(pick(rng, [w, withSign(w, !w.signed)]))], t));
  if (w) choices.push(() => mkCast(t, sub(w)));
  if (t.bits === 16 && t.signed) choices.push(() => mkFp('mul_shr', [sub(t), sub(t), { k: 'const', value: 16n, type: t }], undefined));
  return pick(rng, choices)();
}

export const randomType = (rng: Rng): ScalarType => pick(rng, T8_16);

/** Boundary-biased lanes for each variable. */
export function randomLanes(vars: readonly Extract<FExpr, { k: 'var' }>[], lanes: number, rng: Rng): Map<string, bigint[]> {
  return new Map(vars.map((v) => {
    const edges = boundaryValues(v.type);
    return [v.name, Array.from({ length: lanes }, () => sampleValue(v.type, rng, edges))];
  }));
}
