// Proving or refuting one of Halide's rules in one domain (spec/simplify.md [HR-VERDICT]): assert
// the predicate and that the two sides differ, and ask Z3 for a model. A model is replayed with
// refsem's operators (eval.ts) before the rule is called refuted. When Z3 gives up in the domain
// `halide`, two more attacks follow: division and remainder as quotient and remainder variables,
// and a search bounded to 8-bit and then 16-bit values, which can refute but never prove. A rule
// claimed in several domains ([HR-WRAP]) is checked in each until one refutes it.
import type { BoolE, Ctx, IntE } from '../../expr/smt.js';
import { coreSolver, withOwnZ3, withZ3 } from '../../expr/smt.js';
import { type HExpr, walkH } from './ast.js';
import { type DomainName, type Val, valuesOf, wrappingType } from './domain.js';
import { type EncodeOptions, type Encoding, encodeRule, laneOperand } from './encode.js';
import { evalH } from './eval.js';
import { type Modelled, isVector, wildcardTypes } from './model.js';
import { inRange } from '../../fpir/types.js';
import { exhaust } from './exhaust.js';

export type Attack = 'z3' | 'division variables' | 'bounded search' | 'lane enumeration' | 'exhaustive';

/**
 * Z3's resource units per millisecond of `timeoutMs` (spec/simplify.md [HR-BUDGET]): solver calls
 * are bounded by work, not by the clock, so that an answer does not depend on the machine's load.
 * About 2.5 million units took a second on an idle core of the machine measured.
 */
const UNITS_PER_MS = 2500;
/** A rule's budget by default, in milliseconds of an idle core ([HR-BUDGET]). */
export const RULE_BUDGET_MS = 400;
/**
 * The wall clock only guards against a hang: a call that runs this long has spent far more time than
 * its grant of units ever took (about 5 µs a unit on the slowest queries measured, 100 µs here), on
 * no less than a minute, so that it does not fire on a loaded machine ([HR-BUDGET]).
 */
const guardMs = (grant: number): number => Math.max(60_000, Math.ceil(grant / 10));
/** The wall-clock guard stopped a call: the verdict would depend on the machine, so the rule stops there. */
class GuardFired extends Error {
  constructor(readonly ms: number) {
    super(`the wall-clock guard stopped Z3 after ${Math.round(ms / 1000)} s`);
  }
}
/** The share of a rule's whole budget one attack may take: at least two attacks get a real chance. */
const ATTACK = 1 / 2;
/** The share one step of a counterexample's shrinking, or a vacuity check, may take. */
const STEP = 1 / 16;

type Solver = InstanceType<Ctx['Solver']>;

/**
 * The work one rule may spend, in Z3 resource units, shared by every domain and attack
 * ([HR-BUDGET]); each call is charged what Z3 counted, so the ledger is as deterministic as the
 * count.
 */
export class Ledger {
  left: number;
  constructor(readonly whole: number) {
    this.left = whole;
  }
  static of(timeoutMs: number): Ledger {
    return new Ledger(timeoutMs * UNITS_PER_MS);
  }
  /** Is there enough left for another attack? */
  get open(): boolean {
    return this.left >= this.whole * STEP;
  }
}

const workCount = (s: Solver): number => {
  const st = s.statistics();
  return st.keys().includes('rlimit count') ? st.get('rlimit count') : 0;
};

// implements [HR-BUDGET]
async function check(s: Solver, ledger: Ledger, share: number, ...assumptions: BoolE[]): Promise<'sat' | 'unsat' | 'unknown'> {
  // Never 0: Z3 reads an rlimit of 0 as no limit at all.
  const grant = Math.max(1, Math.floor(Math.max(ledger.whole * STEP, Math.min(ledger.left, ledger.whole * share))));
  s.set('rlimit', grant);
  const guard = guardMs(grant);
  s.set('timeout', guard);
  const before = workCount(s);
  const t0 = performance.now();
  const answer = await s.check(...assumptions);
  ledger.left -= workCount(s) - before;
  // Z3 names both limits alike ("canceled"): the clock tells them apart.
  if (answer === 'unknown' && performance.now() - t0 >= guard) throw new GuardFired(guard);
  return answer;
}

/** The vector lengths the lane enumeration tries. */
const LANE_TOTALS = [1, 2, 3, 4, 6, 8];
const divisors = (n: number) => Array.from({ length: n }, (_, i) => i + 1).filter((d) => n % d === 0);

/** Every assignment of a value from `values` to each of `names`. */
function* assignments(names: readonly string[], values: readonly number[]): Generator<Map<string, number>> {
  if (names.length === 0) {
    yield new Map();
    return;
  }
  for (const rest of assignments(names.slice(1), values)) for (const v of values) yield new Map([...rest, [names[0]!, v]]);
}

/** The names that give a broadcast's or a ramp's lane count. */
function laneNames(r: Modelled): string[] {
  const out = new Set<string>();
  for (const e of [r.lhs, r.rhs]) {
    walkH(e, (x) => {
      const n = laneOperand(x);
      if (n?.k === 'id') out.add(n.name);
    });
  }
  return [...out].sort();
}

export type HVerdict = (
  | { readonly status: 'proved'; readonly by: Attack; readonly ms: number }
  /** the predicate holds for no match (or a literal of the left side is not a value of the type): the rule never fires, so its proof says nothing */
  | { readonly status: 'vacuous'; readonly ms: number }
  | { readonly status: 'refuted'; readonly by: Attack; readonly ms: number; readonly counterexample: string; readonly lhs: string; readonly rhs: string }
  /** `bits`: the bounded search found no counterexample with values of that many bits */
  | { readonly status: 'unknown'; readonly ms: number; readonly reason: string; readonly bits?: number; readonly lanes?: number; readonly guard?: true }
) & {
  /** the domain a refutation or an unknown is in */
  readonly domain?: DomainName;
  /** the verdict in each domain checked, when the rule is claimed in several */
  readonly domains?: Readonly<Record<DomainName, HVerdict['status']>>;
};

export interface VerifyOptions {
  /** per rule: its budget of Z3 work ([HR-BUDGET]), stated in milliseconds of an idle core */
  readonly timeoutMs?: number;
  /** the widths of the bounded search, smallest first */
  readonly bits?: readonly number[];
  /** the domain (default `halide`) */
  readonly domain?: DomainName;
  /** the rule's budget when it is shared with other domains (default: a new one of `timeoutMs`) */
  readonly ledger?: Ledger;
  /** `first`: only the first query (or the exhaustive evaluation); `later`: only the attacks after it */
  readonly stage?: 'first' | 'later';
}

const usesDivision = (r: Modelled): boolean => {
  let d = false;
  const see = (e: HExpr) => walkH(e, (x) => void (x.k === 'bin' && (x.op === '/' || x.op === '%') && (d = true)));
  see(r.lhs);
  see(r.rhs);
  if (r.pred) see(r.pred);
  return d;
};

type Model = ReturnType<Solver['model']>;

/** The solver's model, if it holds one. */
const readModel = (s: Solver): Model | undefined => {
  try {
    return s.model();
  } catch {
    return undefined;
  }
};

/** Reads a model, replays it (in the domain's type), and describes it; undefined when it does not replay. */
function replay(c: Ctx, r: Modelled, enc: Encoding, model: Model, domain: DomainName): { counterexample: string; lhs: string; rhs: string } | undefined {
  const t = wrappingType(domain);
  const num = (e: Val): bigint => enc.values.read(model as never, e);
  const lane = (e: IntE): bigint => {
    const v = model.eval(e, true);
    return c.isIntVal(v) ? v.value() : 0n;
  };
  const scalars = new Map([...[...enc.scalars].map(([k, v]) => [k, num(v)] as const), ...[...enc.laneScalars].map(([k, v]) => [k, lane(v)] as const)]);
  const wildcard = (name: string, at: bigint) => num(enc.wildcard(name, c.Int.val(at)));
  const p = { scalars, wildcard };
  const l = enc.lane ? lane(enc.lane.l) : 0n;
  const n = enc.lane ? lane(enc.lane.n) : 1n;
  if (evalH(r.pred ?? { k: 'bool', v: true }, p, 0n, 1n, t) === 0n) return undefined;
  const lv = evalH(r.lhs, p, l, n, t);
  const rv = evalH(r.rhs, p, l, n, t);
  if (lv === rv) return undefined;
  const names = new Set<string>();
  for (const e of [r.lhs, r.rhs, ...(r.pred ? [r.pred] : [])]) walkH(e, (x) => void (x.k === 'id' && names.add(x.name)));
  const parts: string[] = [];
  if (enc.lane) parts.push(`L = ${n}`, `lane = ${l}`);
  for (const name of [...names].sort()) {
    if (scalars.has(name)) parts.push(`${name} = ${scalars.get(name)}`);
    else if (enc.lane) parts.push(`${name} = [${Array.from({ length: Math.min(Number(n), 8) }, (_, i) => wildcard(name, BigInt(i))).join(', ')}]`);
    else parts.push(`${name} = ${wildcard(name, 0n)}`);
  }
  for (const [k, v] of scalars) if (k.startsWith('is_const(')) parts.push(`${k} = ${v === 1n}`);
  return { counterexample: parts.join(', '), lhs: `${lv}`, rhs: `${rv}` };
}

/** Does every literal of the left side's values name a value of the type? One that does not never matches. */
function literalsFit(r: Modelled, domain: DomainName): boolean {
  const t = wrappingType(domain);
  if (!t) return true;
  let fits = true;
  const lanes = new Set<HExpr>();
  walkH(r.lhs, (x) => {
    const n = laneOperand(x);
    if (n) walkH(n, (y) => void lanes.add(y));
    if (x.k === 'int' && !lanes.has(x) && !inRange(x.v, t)) fits = false;
  });
  return fits;
}

/** Every leaf within ±2^(bits−1), and at most 2^(bits−1) lanes (the bounded search). */
function bounded(c: Ctx, enc: Encoding, bits: number): BoolE {
  const b = 1n << BigInt(bits - 1);
  const inBox = enc.leaves.map((v) => c.And((v as IntE).ge(-b), (v as IntE).lt(b)));
  return c.And(...inBox, ...(enc.lane ? [enc.lane.n.le(Math.min(bits, 16))] : []));
}

const spentReason = 'Z3 gave up, and the rule\'s work budget is spent';

type WithContext = <T>(f: (c: Ctx) => Promise<T>) => Promise<T>;

/** A rule in one domain, with the session's shared context (see `verifyInDomains` for one of its own). */
export const verifyHalideRule = (r: Modelled, opts: VerifyOptions = {}): Promise<HVerdict> => verifyWith(withZ3, r, opts);

// implements [HR-VERDICT]
function verifyWith(withC: WithContext, r: Modelled, opts: VerifyOptions): Promise<HVerdict> {
  const ledger = opts.ledger ?? Ledger.of(opts.timeoutMs ?? RULE_BUDGET_MS);
  const domain = opts.domain ?? 'halide';
  const first = opts.stage !== 'later';
  if (!literalsFit(r, domain)) return Promise.resolve({ status: 'vacuous', ms: 0 });
  const t0 = performance.now();
  const whole = first ? exhaust(r, domain) : undefined;
  if (whole) {
    const ms = Math.round(performance.now() - t0);
    return Promise.resolve(whole.status === 'refuted' ? { ...whole, by: 'exhaustive', ms } : whole.status === 'proved' ? { status: 'proved', by: 'exhaustive', ms } : { status: 'vacuous', ms });
  }
  if (!ledger.open) return Promise.resolve({ status: 'unknown', ms: 0, reason: spentReason });
  const ms = () => Math.round(performance.now() - t0);
  return withC(async (c) => {
    try {
      return await attacks(c, r, opts, ledger, ms);
    } catch (e) {
      if (!(e instanceof GuardFired)) throw e;
      return { status: 'unknown', ms: ms(), reason: `${e.message} before it answered or spent its share of the rule's budget: this verdict depends on the machine`, guard: true };
    }
  });
}

/**
 * Z3's SMT core for unbounded integers, its default solver for bit-vectors ([HR-BUDGET]): the
 * default hands nonlinear integer queries to a tactic with steps limited in seconds, while for
 * bit-vectors its tactic (bit-blasting) proves rules the core alone gives up on.
 */
const solverFor = async (c: Ctx, domain: DomainName): Promise<Solver> => (domain === 'halide' ? coreSolver(c) : new c.Solver());

/** Z3's first query, then the second lines of attack, as `opts.stage` asks. */
async function attacks(c: Ctx, r: Modelled, opts: VerifyOptions, ledger: Ledger, ms: () => number): Promise<HVerdict> {
  const domain = opts.domain ?? 'halide';
  const first = opts.stage !== 'later';
  const later = opts.stage !== 'first';
  const types = wildcardTypes(r);
  const values = valuesOf(c, domain);
  const holds = (enc: Encoding) => enc.values.eq(enc.pred, enc.values.lit(0n)).not();
  const attempt = async (eo: EncodeOptions, extra?: (enc: Encoding) => BoolE) => {
    const enc = encodeRule(c, r, types, { ...eo, values });
    const s = await solverFor(c, domain);
    s.add(...enc.facts, holds(enc), enc.values.eq(enc.lhs, enc.rhs).not());
    if (extra) s.add(extra(enc));
    const answer = await check(s, ledger, ATTACK);
    let model: Model | undefined = answer === 'sat' ? readModel(s) : undefined;
    // Small counterexamples read better and do not depend on the solver's history: the
    // smallest box ±16^k that holds one within a small share of the budget, else the first model.
    for (let b = 1; model && b <= 1 << 16; b *= 16) {
      const inBox = c.And(...enc.leaves.map((v) => enc.values.box(v, BigInt(b))));
      if ((await check(s, ledger, STEP, inBox)) === 'sat') {
        model = readModel(s) ?? model;
        break;
      }
    }
    return { answer, enc, model } as const;
  };
  const judge = async (by: Attack, eo: EncodeOptions, extra?: (enc: Encoding) => BoolE): Promise<HVerdict | undefined> => {
    const { answer, enc, model } = await attempt(eo, extra);
    if (answer === 'unsat') {
      if (extra) return undefined;
      // A proof under a predicate that never holds proves nothing: report it as vacuous.
      const v = await solverFor(c, domain);
      v.add(...enc.facts, holds(enc));
      return (await check(v, ledger, STEP)) === 'unsat' ? { status: 'vacuous', ms: ms() } : { status: 'proved', by, ms: ms() };
    }
    const shown = model && replay(c, r, enc, model, domain);
    return shown ? { status: 'refuted', by, ms: ms(), ...shown } : undefined;
  };
  if (first) {
    const got = await judge('z3', {});
    if (got) return got;
    // Bit-vectors are decided by Z3 given time: only the unbounded domain has more to try.
    if (domain !== 'halide') return { status: 'unknown', ms: ms(), reason: `Z3 gave up in ${domain}` };
    if (!later) return { status: 'unknown', ms: ms(), reason: 'Z3 gave up' };
  }
  if (domain !== 'halide') return { status: 'unknown', ms: ms(), reason: `Z3 gave up in ${domain}` };
  const spent = (): HVerdict => ({ status: 'unknown', ms: ms(), reason: spentReason });
  if (usesDivision(r)) {
    if (!ledger.open) return spent();
    const second = await judge('division variables', { divisionVariables: true });
    if (second) return second;
  }
  if (isVector(r.lhs) || isVector(r.rhs)) {
    // Vectors: every lane structure of at most eight lanes, each an exact (linear) query. They
    // share one solver, the structure passed as assumptions, so that what Z3 learns on one
    // carries over to the next. The first structure Z3 gives up on ends the enumeration: no
    // bound can be claimed past it, and on Halide's rules none that followed ever refuted.
    const names = laneNames(r);
    const enc = encodeRule(c, r, types, { values });
    const s = await solverFor(c, domain);
    s.add(...enc.facts, holds(enc), enc.values.eq(enc.lhs, enc.rhs).not());
    for (const total of LANE_TOTALS) {
      for (const pick of assignments(names, divisors(total))) {
        if (!ledger.open) return { status: 'unknown', ms: ms(), reason: `${spentReason} at ${total} lanes` };
        const fix = (e: Encoding) => c.And(e.lane!.n.eq(total), ...[...pick].map(([k, v]) => e.laneScalars.get(k)?.eq(v) ?? c.Bool.val(true)));
        if ((await check(s, ledger, ATTACK, fix(enc))) === 'unsat') continue;
        // A model: the small counterexample of a fresh query, as for every other refutation.
        const small = await attempt({}, fix);
        const shown = small.model && replay(c, r, small.enc, small.model, domain);
        if (shown) return { status: 'refuted', by: 'lane enumeration', ms: ms(), ...shown };
        return { status: 'unknown', ms: ms(), reason: `Z3 gave up, and the lane enumeration too at ${total} lanes` };
      }
    }
    return { status: 'unknown', ms: ms(), reason: `Z3 gave up; no counterexample up to ${LANE_TOTALS.at(-1)} lanes`, lanes: LANE_TOTALS.at(-1)! };
  }
  let bits: number | undefined;
  for (const n of opts.bits ?? [8, 16]) {
    if (!ledger.open) break;
    const { answer, enc, model } = await attempt({}, (enc) => bounded(c, enc, n));
    const shown = model && replay(c, r, enc, model, domain);
    if (shown) return { status: 'refuted', by: 'bounded search', ms: ms(), ...shown };
    if (answer !== 'unsat') break;
    bits = n;
  }
  if (bits) return { status: 'unknown', ms: ms(), reason: `Z3 gave up; no counterexample up to ${bits} bits`, bits };
  return { status: 'unknown', ms: ms(), reason: ledger.open ? 'Z3 gave up, and the bounded search too' : spentReason };
}

/**
 * A rule checked in every domain it is claimed in ([HR-WRAP]), `halide` first, until one refutes
 * it: proved when proved in every domain where it can fire, vacuous when it fires in none, and
 * otherwise refuted or unknown in the first domain that says so. Every domain has its first query
 * before any second line of attack, and all of them draw on one budget for the rule ([HR-BUDGET]),
 * in a Z3 context of the rule's own, so that the verdict depends on the rule and the budget alone.
 */
export function verifyInDomains(r: Modelled, domains: readonly DomainName[], opts: VerifyOptions = {}): Promise<HVerdict> {
  return withOwnZ3((c) => inDomains(c, r, domains, opts));
}

async function inDomains(c: Ctx, r: Modelled, domains: readonly DomainName[], opts: VerifyOptions): Promise<HVerdict> {
  const ledger = opts.ledger ?? Ledger.of(opts.timeoutMs ?? RULE_BUDGET_MS);
  const got = new Map<DomainName, HVerdict>();
  let ms = 0;
  const shown = () => (domains.length > 1 ? { domains: Object.fromEntries([...got].map(([d, v]) => [d, v.status])) } : {});
  const settle = async (domain: DomainName, stage: 'first' | 'later'): Promise<HVerdict | undefined> => {
    const v = await verifyWith((f) => f(c), r, { ...opts, ledger, domain, stage });
    ms += v.ms;
    got.set(domain, v);
    // After the wall-clock guard, what follows would depend on the machine: the rule stops there.
    return v.status === 'refuted' || (v.status === 'unknown' && v.guard) ? { ...v, ms, domain, ...shown() } : undefined;
  };
  for (const domain of domains) {
    const ends = await settle(domain, 'first');
    if (ends) return ends;
  }
  if (got.get('halide')?.status === 'unknown') {
    const ends = await settle('halide', 'later');
    if (ends) return ends;
  }
  const all = [...got];
  const unknown = all.find(([, v]) => v.status === 'unknown');
  if (unknown) return { ...unknown[1], ms, domain: unknown[0], ...shown() };
  const proved = all.find(([, v]) => v.status === 'proved');
  return proved ? { ...proved[1], ms, ...shown() } : { status: 'vacuous', ms, ...shown() };
}
