// Z3 (z3-solver) for the checks that prove things about expressions: the one lazily started
// solver session every such check shares, and the integer meaning of each operator of fig. 2.5b
// in Z3's arithmetic, with SMT-LIB's Euclidean div/mod made total the way §2.9 makes them
// (x div 0 = x mod 0 = 0). Only commands reach this module; the browser never loads it.
import { type Arith, type Bool, type Context, type Z3HighLevel, type Z3LowLevel, init, killThreads } from 'z3-solver';
import type { OpName } from './ast.js';

type Api = Z3HighLevel & Z3LowLevel;
export type Ctx = Context<'refsem'>;
export type IntE = Arith<'refsem'>;
export type BoolE = Bool<'refsem'>;

let api: Promise<Api> | undefined;
let ctx: Ctx | undefined;
let startupMs = 0;
let chain: Promise<unknown> = Promise.resolve();

/** Z3 is initialised once, lazily; its start-up time is kept for the benchmarks. */
async function z3(): Promise<Ctx> {
  if (!api) {
    const t0 = performance.now();
    api = init();
    const a = await api;
    startupMs = performance.now() - t0;
    ctx = new a.Context('refsem');
  }
  await api;
  return ctx!;
}

export const z3StartupMs = (): number => startupMs;

/** Ends Z3's worker threads so that the process can exit; the next call starts Z3 again. */
export async function shutdownZ3(): Promise<void> {
  await chain.catch(() => undefined);
  if (!api) return;
  const a = await api;
  await killThreads(a.em);
  api = undefined;
  ctx = undefined;
}

/** Runs `f` with the context, one call at a time: the wasm build shares one heap and must not be re-entered. */
export function withZ3<T>(f: (c: Ctx) => Promise<T>): Promise<T> {
  const run = async () => f(await z3());
  const next = chain.then(run, run);
  chain = next.catch(() => undefined);
  return next;
}

/** The integer result of an operator on integer arguments; truth values are 0 and 1. */
export function intOp(c: Ctx, o: OpName, a: readonly IntE[]): IntE {
  const zero = c.Int.val(0);
  const one = c.Int.val(1);
  const asInt = (b: BoolE): IntE => c.If(b, one, zero) as IntE;
  const truth = (e: IntE): BoolE => e.neq(zero);
  const [x, y, z] = a as [IntE, IntE, IntE];
  switch (o) {
    case '+':
      return x.add(y);
    case '-':
      return x.sub(y);
    case '*':
      return x.mul(y);
    case 'div':
      return c.If(y.eq(zero), zero, x.div(y)) as IntE;
    case 'mod':
      return c.If(y.eq(zero), zero, x.mod(y)) as IntE;
    case '<':
      return asInt(x.lt(y));
    case '>':
      return asInt(x.gt(y));
    case '=':
      return asInt(x.eq(y));
    case 'and':
      return asInt(c.And(truth(x), truth(y)));
    case 'or':
      return asInt(c.Or(truth(x), truth(y)));
    case 'not':
      return asInt(x.eq(zero));
    case 'select':
      return c.If(truth(x), y, z) as IntE;
    case 'min':
      return c.If(x.le(y), x, y) as IntE;
    case 'max':
      return c.If(x.ge(y), x, y) as IntE;
  }
}
