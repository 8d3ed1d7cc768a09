// fast-check arbitraries for exact integers, values and expressions, shared by every test and
// fuzzer that needs them.
import fc from 'fast-check';
import { type Expr, type OpName, OP_ARITY } from '../../expr/ast.js';
import { E_MEM, E_RDOM, type Int, type Value, int } from '../../expr/value.js';

const SAFE = Number.MAX_SAFE_INTEGER;

/** Integers weighted towards small values and the edges of the safe range, plus huge ones. */
export const arbInt: fc.Arbitrary<Int> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -20, max: 20 }).map(int) },
  { weight: 2, arbitrary: fc.integer().map(int) },
  { weight: 2, arbitrary: fc.integer({ min: -5, max: 5 }).map((d) => int(BigInt(SAFE) + BigInt(d))) },
  { weight: 2, arbitrary: fc.integer({ min: -5, max: 5 }).map((d) => int(-BigInt(SAFE) + BigInt(d))) },
  { weight: 2, arbitrary: fc.bigInt({ min: -(1n << 130n), max: 1n << 130n }).map(int) },
);

export const arbValue: fc.Arbitrary<Value> = fc.oneof(
  { weight: 10, arbitrary: arbInt as fc.Arbitrary<Value> },
  { weight: 1, arbitrary: fc.constant<Value>(E_RDOM) },
  { weight: 1, arbitrary: fc.constant<Value>(E_MEM) },
);

export const ALL_OPS = Object.keys(OP_ARITY) as OpName[];

export interface ExprShape {
  /** variables that may occur */
  vars?: readonly string[];
  /** funcs that may be accessed, with their arity */
  funcs?: ReadonlyMap<string, number>;
  /** whether error constants may occur */
  errors?: boolean;
  depth?: number;
}

/** Expressions over the given variables and funcs; leaves are small constants or variables. */
export function arbExpr(shape: ExprShape = {}): fc.Arbitrary<Expr> {
  const vars = shape.vars ?? [];
  const funcs = [...(shape.funcs ?? new Map()).entries()];
  const leafs: fc.Arbitrary<Expr>[] = [
    fc.integer({ min: -8, max: 8 }).map((n): Expr => ({ k: 'const', value: int(n) })),
  ];
  if (shape.errors) leafs.push(fc.constantFrom(E_RDOM, E_MEM).map((value): Expr => ({ k: 'const', value })));
  if (vars.length > 0) leafs.push(fc.constantFrom(...vars).map((name): Expr => ({ k: 'var', name })));
  const leaf = fc.oneof(...leafs);
  const { expr } = fc.letrec<{ expr: Expr }>((tie) => ({
    expr: fc.oneof(
      { depthSize: 'small', maxDepth: shape.depth ?? 4 },
      leaf,
      fc
        .constantFrom(...ALL_OPS)
        .chain((o) =>
          fc.array(tie('expr'), { minLength: OP_ARITY[o], maxLength: OP_ARITY[o] }).map((args): Expr => ({ k: 'op', op: o, args })),
        ),
      ...(funcs.length > 0
        ? [
            fc
              .constantFrom(...funcs)
              .chain(([f, n]) =>
                fc.array(tie('expr'), { minLength: n, maxLength: n }).map((args): Expr => ({ k: 'access', func: f, args })),
              ),
          ]
        : []),
    ),
  }));
  return expr;
}
