// Proving or refuting one of Halide's rules in one domain (spec/simplify.md [HR-VERDICT]): assert
// the predicate and that the two sides differ, and ask Z3 for a model. A model is replayed with
// refsem's operators (eval.ts) before the rule is called refuted. When Z3 gives up in the domain
// `halide`, two more attacks follow: division and remainder as quotient and remainder variables,
// and a search bounded to 8-bit and then 16-bit values, which can refute but never prove. A rule
// claimed in several domains ([HR-WRAP]) is checked in each until one refutes it.
import type { BoolE, Ctx, IntE } from '../../expr/smt.js';
import { withZ3 } from '../../expr/smt.js';
import { type HExpr, walkH } from './ast.js';
import { type DomainName, type Val, valuesOf, wrappingType } from './domain.js';
import { type EncodeOptions, type Encoding, encodeRule, laneOperand } from './encode.js';
import { evalH } from './eval.js';
import { type Modelled, isVector, wildcardTypes } from './model.js';
import { inRange } from '../../fpir/types.js';
import { exhaust } from './exhaust.js';

export type Attack = 'z3' | 'division variables' | 'bounded search' | 'lane enumeration' | 'exhaustive';

/**
 * Z3's resource units granted per millisecond of `timeoutMs` (spec/simplify.md [HR-BUDGET]): a
 * solver call is bounded by work, not by the clock, so that its answer does not depend on the
 * machine's load. About 2.5 million units took a second on an idle core of the machine measured.
 */
const UNITS_PER_MS = 2500;
/** The wall clock only guards against a hang, far beyond the budget. */
const GUARD = 30;

type Solver = InstanceType<Ctx['Solver']>;
// implements [HR-BUDGET]
const budget = (s: Solver, ms: number): Solver => {
  s.set('rlimit', ms * UNITS_PER_MS);
  s.set('timeout', ms * GUARD);
  return s;
};

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
  | { readonly status: 'unknown'; readonly ms: number; readonly reason: string; readonly bits?: number; readonly lanes?: number }
) & {
  /** the domain a refutation or an unknown is in */
  readonly domain?: DomainName;
  /** the verdict in each domain checked, when the rule is claimed in several */
  readonly domains?: Readonly<Record<DomainName, HVerdict['status']>>;
};

export interface VerifyOptions {
  /** per solver call: a budget of Z3 resource units ([HR-BUDGET]), stated in milliseconds of an idle core */
  readonly timeoutMs?: number;
  /** the widths of the bounded search, smallest first */
  readonly bits?: readonly number[];
  /** the domain (default `halide`) */
  readonly domain?: DomainName;
}

const usesDivision = (r: Modelled): boolean => {
  let d = false;
  const see = (e: HExpr) => walkH(e, (x) => void (x.k === 'bin' && (x.op === '/' || x.op === '%') && (d = true)));
  see(r.lhs);
  see(r.rhs);
  if (r.pred) see(r.pred);
  return d;
};

/** Whether the solver holds a model (a check after the last sat may have timed out). */
const readModel = (s: Solver): boolean => {
  try {
    s.model();
    return true;
  } catch {
    return false;
  }
};

type Model = ReturnType<Solver['model']>;

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

// implements [HR-VERDICT]
export function verifyHalideRule(r: Modelled, opts: VerifyOptions = {}): Promise<HVerdict> {
  const timeout = opts.timeoutMs ?? 2000;
  const domain = opts.domain ?? 'halide';
  if (!literalsFit(r, domain)) return Promise.resolve({ status: 'vacuous', ms: 0 });
  const t0 = performance.now();
  const whole = exhaust(r, domain);
  if (whole) {
    const ms = Math.round(performance.now() - t0);
    return Promise.resolve(whole.status === 'refuted' ? { ...whole, by: 'exhaustive', ms } : whole.status === 'proved' ? { status: 'proved', by: 'exhaustive', ms } : { status: 'vacuous', ms });
  }
  return withZ3(async (c) => {
    const ms = () => Math.round(performance.now() - t0);
    const types = wildcardTypes(r);
    const values = valuesOf(c, domain);
    const holds = (enc: Encoding) => enc.values.eq(enc.pred, enc.values.lit(0n)).not();
    const attempt = async (eo: EncodeOptions, extra?: (enc: Encoding) => BoolE) => {
      const enc = encodeRule(c, r, types, { ...eo, values });
      const s = budget(new c.Solver(), timeout);
      s.add(...enc.facts, holds(enc), enc.values.eq(enc.lhs, enc.rhs).not());
      if (extra) s.add(extra(enc));
      const answer = await s.check();
      if (answer !== 'sat') return { answer, enc, s } as const;
      // Small counterexamples read better and do not depend on the solver's history: the
      // smallest box ±4^k that holds one.
      let found = false;
      for (let b = 1; b <= 1 << 16 && !found; b *= 4) {
        const inBox = c.And(...enc.leaves.map((v) => enc.values.box(v, BigInt(b))));
        found = (await s.check(inBox)) === 'sat';
      }
      if (!found) await s.check();
      return { answer, enc, s } as const;
    };
    const judge = async (by: Attack, eo: EncodeOptions, extra?: (enc: Encoding) => BoolE): Promise<HVerdict | undefined> => {
      const { answer, enc, s } = await attempt(eo, extra);
      if (answer === 'unsat') {
        if (extra) return undefined;
        // A proof under a predicate that never holds proves nothing: report it as vacuous.
        const v = budget(new c.Solver(), timeout);
        v.add(...enc.facts, holds(enc));
        return (await v.check()) === 'unsat' ? { status: 'vacuous', ms: ms() } : { status: 'proved', by, ms: ms() };
      }
      if (answer === 'sat') {
        const shown = readModel(s) && replay(c, r, enc, s.model(), domain);
        if (shown) return { status: 'refuted', by, ms: ms(), ...shown };
      }
      return undefined;
    };
    const first = await judge('z3', {});
    if (first) return first;
    // Bit-vectors are decided by Z3 given time: only the unbounded domain has more to try.
    if (domain !== 'halide') return { status: 'unknown', ms: ms(), reason: `Z3 gave up in ${domain}` };
    if (usesDivision(r)) {
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
      const s = budget(new c.Solver(), timeout);
      s.add(...enc.facts, holds(enc), enc.values.eq(enc.lhs, enc.rhs).not());
      for (const total of LANE_TOTALS) {
        for (const pick of assignments(names, divisors(total))) {
          const fix = (e: Encoding) => c.And(e.lane!.n.eq(total), ...[...pick].map(([k, v]) => e.laneScalars.get(k)?.eq(v) ?? c.Bool.val(true)));
          if ((await s.check(fix(enc))) === 'unsat') continue;
          // A model: the small counterexample of a fresh query, as for every other refutation.
          const small = await attempt({}, fix);
          const shown = small.answer === 'sat' && readModel(small.s) && replay(c, r, small.enc, small.s.model(), domain);
          if (shown) return { status: 'refuted', by: 'lane enumeration', ms: ms(), ...shown };
          return { status: 'unknown', ms: ms(), reason: `Z3 gave up, and the lane enumeration too at ${total} lanes` };
        }
      }
      return { status: 'unknown', ms: ms(), reason: `Z3 gave up; no counterexample up to ${LANE_TOTALS.at(-1)} lanes`, lanes: LANE_TOTALS.at(-1)! };
    }
    let bits: number | undefined;
    for (const n of opts.bits ?? [8, 16]) {
      const { answer, enc, s } = await attempt({}, (enc) => bounded(c, enc, n));
      if (answer === 'sat') {
        const shown = replay(c, r, enc, s.model(), domain);
        if (shown) return { status: 'refuted', by: 'bounded search', ms: ms(), ...shown };
      }
      if (answer !== 'unsat') break;
      bits = n;
    }
    return {
      status: 'unknown', ms: ms(),
      reason: bits ? `Z3 gave up; no counterexample up to ${bits} bits` : 'Z3 gave up, and the bounded search too',
      ...(bits ? { bits } : {}),
    };
  });
}

/**
 * A rule checked in every domain it is claimed in ([HR-WRAP]), `halide` first, until one refutes
 * it: proved when proved in every domain where it can fire, vacuous when it fires in none, and
 * otherwise refuted or unknown in the first domain that says so.
 */
export async function verifyInDomains(r: Modelled, domains: readonly DomainName[], opts: VerifyOptions = {}): Promise<HVerdict> {
  const got: Record<DomainName, HVerdict['status']> = {};
  let ms = 0;
  let proved: HVerdict | undefined;
  let unknown: HVerdict | undefined;
  for (const domain of domains) {
    const v = await verifyHalideRule(r, { ...opts, domain });
    got[domain] = v.status;
    ms += v.ms;
    const many = domains.length > 1 ? { domains: { ...got } } : {};
    if (v.status === 'refuted') return { ...v, ms, domain, ...many };
    if (v.status === 'unknown') unknown ??= { ...v, domain };
    if (v.status === 'proved') proved ??= v;
  }
  const many = domains.length > 1 ? { domains: got } : {};
  if (unknown) return { ...unknown, ms, ...many };
  return proved ? { ...proved, ms, ...many } : { status: 'vacuous', ms, ...many };
}
