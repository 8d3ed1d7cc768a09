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
async function instance(): Promise<Api> {
  if (!api) {
    const t0 = performance.now();
    api = init();
    await api;
    startupMs = performance.now() - t0;
  }
  return api;
}

/** The context the session's checks share, made when first asked for. */
async function z3(): Promise<Ctx> {
  const a = await instance();
  return (ctx ??= new a.Context('refsem'));
}

export const z3StartupMs = (): number => startupMs;

/**
 * Ends Z3's worker threads so that the process can exit; the next call starts Z3 again, a new wasm
 * instance with a fresh heap (also the way to drop an instance that trapped, whose threads may be
 * unusable: ending them is then best effort).
 */
export async function shutdownZ3(): Promise<void> {
  await chain.catch(() => undefined);
  const old = api;
  api = undefined;
  ctx = undefined;
  owned = undefined;
  if (old) await old.then((a) => killThreads(a.em)).catch(() => undefined);
}

/** A Z3 instance's contexts made by `withOwnZ3` (live or deleted: an address is reused by the next one), and how to delete one. */
interface Owned {
  readonly ptrs: Set<number>;
  readonly del: (ptr: number) => void;
}
let owned: Owned | undefined;

/**
 * Once per Z3 instance: the reference counts of contexts made by `withOwnZ3` are left alone, since
 * deleting such a context frees everything in it at once. Reason: z3-solver's finalizers release
 * objects whenever the garbage collector runs, so they would change which ids and addresses a rule's
 * terms get in the middle of its proof; and they would reach a context after it was deleted.
 */
function keepOwnCounts(a: Api): Owned {
  const low = a.Z3 as unknown as Record<string, (c: number, ...rest: unknown[]) => unknown>;
  const del = low.del_context!;
  const ptrs = new Set<number>();
  for (const name of Object.keys(low).filter((k) => k.endsWith('dec_ref') || k === 'del_context')) {
    const f = low[name]!;
    low[name] = (c, ...rest) => (ptrs.has(c) ? undefined : f(c, ...rest));
  }
  return { ptrs, del: (ptr) => void del(ptr) };
}

/**
 * Runs `f` with a context of its own, deleted when `f` is done (spec/simplify.md [HR-BUDGET]):
 * what Z3 does, and counts as work, then depends only on what `f` asks, not on what the instance
 * did before — deleting the context returns its memory, so the next one starts from the same state.
 */
export function withOwnZ3<T>(f: (c: Ctx) => Promise<T>): Promise<T> {
  const run = async () => {
    const a = await instance();
    const o = (owned ??= keepOwnCounts(a));
    const c = new a.Context('refsem');
    const ptr = c.ptr as unknown as number;
    o.ptrs.add(ptr);
    try {
      return await f(c);
    } finally {
      o.del(ptr);
    }
  };
  const next = chain.then(run, run);
  chain = next.catch(() => undefined);
  return next;
}

/**
 * A solver of Z3's SMT core alone (spec/simplify.md [HR-BUDGET]). Reason: the default solver hands a
 * first query to a tactic chosen for its logic, and some of those give a step a fixed number of
 * seconds before falling back to another: then what Z3 does, and counts as work, depends on the
 * machine's load.
 */
export async function coreSolver(c: Ctx): Promise<InstanceType<Ctx['Solver']>> {
  const low = (await instance()).Z3;
  return new c.Solver(low.mk_simple_solver(c.ptr) as never);
}

/** Runs `f` with the context, one call at a time: the wasm build shares one heap and must not be re-entered. */
export function withZ3<T>(f: (c: Ctx) => Promise<T>): Promise<T> {
  const run = async () => f(await z3());
  const next = chain.then(run, run);
  chain = next.catch(() => undefined);
  return next;
}

/**
 * A sort of values as the operators need it: its arithmetic (division and remainder total, by
 * zero giving zero) and its order. Integers here; Halide's wrapping types as bit-vectors.
 */
export interface SortOps<V> {
  readonly zero: V;
  readonly one: V;
  readonly add: (x: V, y: V) => V;
  readonly sub: (x: V, y: V) => V;
  readonly mul: (x: V, y: V) => V;
  readonly div: (x: V, y: V) => V;
  readonly mod: (x: V, y: V) => V;
  readonly lt: (x: V, y: V) => BoolE;
  readonly le: (x: V, y: V) => BoolE;
  readonly gt: (x: V, y: V) => BoolE;
  readonly ge: (x: V, y: V) => BoolE;
  readonly eq: (x: V, y: V) => BoolE;
  readonly neq: (x: V, y: V) => BoolE;
}

/** The result of an operator on values of one sort; truth values are 0 and 1. */
export function opOver<V>(c: Ctx, s: SortOps<V>, o: OpName, a: readonly V[]): V {
  const asV = (b: BoolE): V => c.If(b, s.one as never, s.zero as never) as V;
  const truth = (e: V): BoolE => s.neq(e, s.zero);
  const pick = (b: BoolE, x: V, y: V): V => c.If(b, x as never, y as never) as V;
  const [x, y, z] = a as [V, V, V];
  switch (o) {
    case '+':
      return s.add(x, y);
    case '-':
      return s.sub(x, y);
    case '*':
      return s.mul(x, y);
    case 'div':
      return s.div(x, y);
    case 'mod':
      return s.mod(x, y);
    case '<':
      return asV(s.lt(x, y));
    case '>':
      return asV(s.gt(x, y));
    case '=':
      return asV(s.eq(x, y));
    case 'and':
      return asV(c.And(truth(x), truth(y)));
    case 'or':
      return asV(c.Or(truth(x), truth(y)));
    case 'not':
      return asV(s.eq(x, s.zero));
    case 'select':
      return pick(truth(x), y, z);
    case 'min':
      return pick(s.le(x, y), x, y);
    case 'max':
      return pick(s.ge(x, y), x, y);
  }
}

/** The integers as a sort ([OP-DIV], [OP-MOD]: Euclidean, by zero gives zero). */
export function intSort(c: Ctx): SortOps<IntE> {
  const zero = c.Int.val(0);
  return {
    zero, one: c.Int.val(1),
    add: (x, y) => x.add(y),
    sub: (x, y) => x.sub(y),
    mul: (x, y) => x.mul(y),
    div: (x, y) => c.If(y.eq(zero), zero, x.div(y)) as IntE,
    mod: (x, y) => c.If(y.eq(zero), zero, x.mod(y)) as IntE,
    lt: (x, y) => x.lt(y),
    le: (x, y) => x.le(y),
    gt: (x, y) => x.gt(y),
    ge: (x, y) => x.ge(y),
    eq: (x, y) => x.eq(y),
    neq: (x, y) => x.neq(y),
  };
}

/** The integer result of an operator on integer arguments; truth values are 0 and 1. */
export function intOp(c: Ctx, o: OpName, a: readonly IntE[]): IntE {
  return opOver(c, intSort(c), o, a);
}
