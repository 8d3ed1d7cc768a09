// The operator table checked inside campaigns: every operator of fig. 2.5b on random values —
// error values, integers near the edges of the safe range and far beyond it — against a reference
// written independently on bigints (def. 2.6 for errors, §2.9 for Euclidean div/mod with x / 0 = 0,
// 0/1 for truth values). The evaluators, the executors and the code generator all share the
// table, so a fault in it is a fault everywhere at once: the property compares it with a second
// reading of the semantics rather than with the components that use it.
import fc from 'fast-check';
import { type OpName, OP_ARITY } from '../../expr/ast.js';
import { applyOp } from '../../expr/ops.js';
import { E_MEM, E_RDOM, type Value, intFromString, isError, showValue } from '../../expr/value.js';
import { ALL_OPS, arbValue } from '../arbitraries/expr.js';
import { PASS, type Property } from '../property.js';

export interface OperatorCase {
  readonly op: OpName;
  readonly args: readonly Value[];
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

export const operators: Property<OperatorCase, OperatorCase> = {
  name: 'operators',
  summary: 'fig. 2.5b, def. 2.6, §2.9: the shared operator table agrees with an independent bigint reference on every operator, error values and huge integers included',
  arbitrary: () => fc.constantFrom(...ALL_OPS).chain((op) => fc.array(arbValue, { minLength: OP_ARITY[op], maxLength: OP_ARITY[op] }).map((args) => ({ op, args }))),
  concretize: (g) => g,
  check(c) {
    const got = applyOp(c.op, c.args);
    const want = referenceOp(c.op, c.args);
    // Values are canonical (value.ts): one representation per integer, so === is equality.
    return got === want ? PASS : { status: 'fail', verdict: 'operator', expected: `${show(c)} = ${showValue(want)}`, actual: `the operator table gives ${showValue(got)}${typeof got !== typeof want && !isError(got) ? ` (as a ${typeof got}, not canonical)` : ''}` };
  },
  encode: (c) => ({ extra: { op: c.op, args: c.args.map(showValue).join(' ') } }),
  decode(t) {
    const op = t.extra?.op as OpName;
    const args = (t.extra?.args ?? '').split(' ').filter(Boolean).map((s): Value => (s === 'ε_rdom' ? E_RDOM : s === 'ε_mem' ? E_MEM : intFromString(s)));
    return { op, args };
  },
  shape: (c) => `${c.op}/${c.args.map((a) => (isError(a) ? showValue(a) : typeof a)).join(',')}`,
};
