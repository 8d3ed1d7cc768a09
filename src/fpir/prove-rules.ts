// Proving rewrite rules with Z3's bit-vectors (spec/fpir.md, [FPIR-PROVE]): the rules whose inputs
// are too many to enumerate. A lifting rule is proved when no input in its types' ranges satisfies
// the precondition and gives the two sides different values. A lowering rule is proved on a whole
// logical vector: every wildcard lane is a variable, the intrinsic tree is interpreted symbolically
// (registers of per-lane terms, reinterpreted by their bits, routed as the table says), and no lane
// where the precondition holds may differ from the left side; a constant wildcard used as an
// immediate must also lie in the entry's range. The routing is checked first by tags.
import { UserError } from '../diag.js';
import { shutdownZ3, withZ3 } from '../expr/smt.js';
import { type FExpr, varsOf } from './ast.js';
import { compileLane } from './eval.js';
import type { RewriteRule } from './lift-rules.js';
import { parseLeft, parseRule } from './lift.js';
import { LANES, type LoweringRule, REG_BITS } from './lower-rules.js';
import { type Intrinsic, type RegType, regBits } from './intrinsics.js';
import { applyIntrinsic, laneFormula, sources } from './machine.js';
import { baseName, isConstWildcard } from './match.js';
import { type RhsTerm, evalRhs, immParts } from './rhs.js';
import { type BV, type Encoder, type ZBool, encoder, widestBits } from './smt.js';
import { type RuleVerdict, checkRouting, joinLanes, rhsOf, split } from './verify-rules.js';
import type { Ctx } from '../expr/smt.js';
import { INT_TYPES, type ScalarType, inRange, tmax, tmin } from './types.js';

export interface Proof {
  readonly status: 'proved' | 'refuted' | 'unknown';
  readonly ms: number;
  /** why a rule is not proved: the solver's answer, or the inputs of a difference */
  readonly reason?: string;
  /** the wall-clock time of the slowest solver query, the time the limit applies to */
  readonly queryMs?: number;
}

/** Variables of a rule by base name, typed by their first occurrence. */
function wildcards(es: readonly (FExpr | undefined)[]): Extract<FExpr, { k: 'var' }>[] {
  const first = new Map<string, Extract<FExpr, { k: 'var' }>>();
  for (const e of es) if (e) for (const v of varsOf(e)) if (!first.has(baseName(v.name))) first.set(baseName(v.name), v);
  return [...first.values()];
}

/**
 * The bounds a precondition puts on its variables: its `&`-conjuncts of the form `v >= c` or
 * `v <= c`. Only the variable's own base name and constants count; anything else bounds nothing.
 */
function boundsInPre(pre: FExpr | undefined): Map<string, [bigint, bigint]> {
  const out = new Map<string, [bigint, bigint]>();
  const go = (e: FExpr): void => {
    if (e.k !== 'prim') return;
    if (e.op === '&') return e.args.forEach(go);
    const [v, c] = e.args;
    if (v.k !== 'var' || c.k !== 'const' || (e.op !== '>=' && e.op !== '<=')) return;
    const b = out.get(baseName(v.name)) ?? [tmin(v.type), tmax(v.type)];
    if (e.op === '>=' && c.value > b[0]) b[0] = c.value;
    if (e.op === '<=' && c.value < b[1]) b[1] = c.value;
    out.set(baseName(v.name), b);
  };
  if (pre) go(pre);
  return out;
}

/**
 * The type a variable is declared at: the narrowest integer type holding every value the
 * precondition allows it, else its own. Sound and complete because an input outside those bounds
 * fails the precondition and can never be a difference; narrower variables keep the products
 * the solver must bit-blast narrow (an i64 product of factors that fit i32 is a 64-bit one).
 */
function declaredType(v: Extract<FExpr, { k: 'var' }>, bounds: ReadonlyMap<string, [bigint, bigint]>): ScalarType {
  const b = bounds.get(baseName(v.name));
  return (b && INT_TYPES.find((t) => t.bits < v.type.bits && tmin(t) <= b[0] && b[1] <= tmax(t))) || v.type;
}

async function decide(c: Ctx, facts: ZBool[], timeoutMs: number, show: (m: (x: BV) => bigint) => { replays: boolean; at: string }): Promise<Omit<Proof, 'ms'>> {
  const solver = new c.Solver();
  try {
    solver.set('timeout', timeoutMs);
    solver.add(...facts);
    const answer = await solver.check();
    if (answer === 'unsat') return { status: 'proved' };
    if (answer === 'unknown') return { status: 'unknown', reason: `Z3 answered unknown within ${timeoutMs} ms (${solver.reasonUnknown?.() ?? 'no reason given'})` };
    const model = solver.model();
    const get = (x: BV): bigint => {
      const v = model.eval(x, true);
      return c.isBitVecVal(v) ? v.asSignedValue() : 0n;
    };
    const { replays, at } = show(get);
    // A counterexample counts only when the interpreter reproduces it.
    return replays ? { status: 'refuted', reason: at } : { status: 'unknown', reason: `Z3's difference does not replay with the interpreter (${at})` };
  } finally {
    // Freed now rather than by the garbage collector: the bit-blasted multipliers of many rules
    // otherwise pile up in the one wasm heap every rule shares.
    solver.release();
  }
}

/**
 * One rule's proof, surviving a crash of Z3's wasm build (a trap such as "memory access out of
 * bounds" while bit-blasting wide multipliers): the rule is unknown with the trap as its reason,
 * and Z3 is restarted, with a fresh heap, for the next rule.
 */
export async function isolated(prove: () => Promise<Proof>): Promise<Proof> {
  const t0 = performance.now();
  try {
    return await prove();
  } catch (err) {
    // WebAssembly.RuntimeError (the project's types leave out the WebAssembly globals).
    if (!(err instanceof Error && err.name === 'RuntimeError')) throw err;
    await shutdownZ3();
    return { status: 'unknown', reason: `Z3's wasm build trapped (${err.message}); Z3 was restarted for the next rule`, ms: performance.now() - t0 };
  }
}

const timed = async (f: () => Promise<Omit<Proof, 'ms'>>): Promise<Proof> => {
  const t0 = performance.now();
  const r = await f();
  return { ...r, ms: performance.now() - t0 };
};

/** A rule's ways to be wrong, stated with one encoder: facts, and one more fact per query. */
interface Queries {
  readonly facts: readonly ZBool[];
  readonly bads: readonly ZBool[];
  readonly show: (m: (x: BV) => bigint) => { replays: boolean; at: string };
}

/**
 * A rule's queries decided one by one, each in up to two rounds: first with abstracted products
 * (cheap, sound for a proof only), then, when that round does not prove it, with the exact
 * multipliers, which alone may refute. `build` states the queries with the encoder it is given;
 * an unknown or a refutation is reported with the query's index.
 */
async function decideAll(c: Ctx, widest: number, timeoutMs: number, build: (enc: Encoder) => Queries): Promise<Omit<Proof, 'ms'> & { query?: number }> {
  const abstract = encoder(c, widest, { abstractProducts: true });
  const qa = build(abstract);
  let exact: Queries | undefined;
  let queryMs = 0;
  const timedDecide = async (facts: ZBool[], show: Queries['show']) => {
    const t0 = performance.now();
    const answer = await decide(c, facts, timeoutMs, show);
    queryMs = Math.max(queryMs, performance.now() - t0);
    return answer;
  };
  for (const [i, bad] of qa.bads.entries()) {
    const first = await timedDecide([...qa.facts, ...abstract.assumptions, bad], () => ({ replays: false, at: '' }));
    if (first.status === 'proved') continue;
    exact ??= build(encoder(c, widest));
    const answer = await timedDecide([...exact.facts, exact.bads[i]!], exact.show);
    if (answer.status !== 'proved') return { ...answer, query: i, queryMs };
  }
  return { status: 'proved', queryMs };
}

// implements [FPIR-PROVE]
export function proveLifting(r: RewriteRule, timeoutMs = 20_000): Promise<Proof> {
  return withZ3((c) =>
    timed(async () => {
      const p = parseRule(r);
      const vars = wildcards([p.lhs, p.pre, p.rhs]);
      const bounds = boundsInPre(p.pre);
      const { query: _, ...answer } = await decideAll(c, widestBits([p.lhs, p.rhs, ...(p.pre ? [p.pre] : [])]), timeoutMs, (enc) => {
        const syms = new Map(vars.map((v) => [baseName(v.name), enc.fresh(`v.${v.name}`, declaredType(v, bounds))]));
        const env = (n: string) => syms.get(baseName(n))!.v;
        // A constant wildcard re-typed on the right applies only where its value fits that type.
        const fits = [...varsOf(p.rhs), ...(p.pre ? varsOf(p.pre) : [])].map((v) => enc.inRange(env(v.name), v.type));
        const facts = [...[...syms.values()].map((s) => s.inRange), ...fits];
        if (p.pre) facts.push(enc.expr(p.pre, env).neq(enc.val(0n)));
        const show = (get: (x: BV) => bigint) => {
          const row = vars.map((v) => get(env(v.name)));
          const slot = (n: string) => vars.findIndex((v) => baseName(v.name) === baseName(n));
          const fl = compileLane(p.lhs, slot);
          const fr = compileLane(p.rhs, slot);
          const fpre = p.pre ? compileLane(p.pre, slot) : () => 1n;
          const fitsAll = [...varsOf(p.rhs), ...(p.pre ? varsOf(p.pre) : [])].every((v) => inRange(row[slot(v.name)]!, v.type));
          return { replays: fitsAll && fpre(row) !== 0n && fl(row) !== fr(row), at: vars.map((v, i) => `${v.name}=${row[i]}`).join(' ') };
        };
        const bad = enc.expr(p.lhs, env).neq(enc.expr(p.rhs, env));
        // Split by the values of the constant wildcard the precondition bounds most narrowly (at
        // most 64 values), one query each: a shift by a known amount is wiring, where a symbolic one
        // is a barrel shifter over all K bits (the rounding shifts of a 64-bit product).
        const split = [...bounds].filter(([n, [lo, hi]]) => isConstWildcard(`${n}_`) && syms.has(n) && hi - lo < 64n).sort(([, a], [, b]) => Number(a[1] - a[0] - (b[1] - b[0])))[0];
        if (!split) return { facts, bads: [bad], show };
        const [name, [lo, hi]] = split;
        return { facts, bads: Array.from({ length: Number(hi - lo) + 1 }, (_, i) => c.And(bad, syms.get(name)!.v.eq(enc.val(lo + BigInt(i))))), show };
      });
      return answer;
    }),
  );
}

/** A register of symbolic lanes: each an exact value of the view's element type. */
interface SymReg {
  readonly type: RegType;
  readonly lanes: readonly BV[];
}

function reinterpretSym(c: Ctx, enc: Encoder, r: SymReg, to: RegType): SymReg {
  if (r.type.elem.bits === to.elem.bits && r.type.lanes === to.lanes) return r.type.elem.signed === to.elem.signed ? r : { type: to, lanes: r.lanes.map((v) => enc.wrap(v, to.elem)) };
  const raw = r.lanes.map((v) => c.Extract(r.type.elem.bits - 1, 0, v));
  const all = raw.length === 1 ? raw[0]! : c.Concat(...[...raw].reverse());
  const b = to.elem.bits;
  const lanes = Array.from({ length: to.lanes }, (_, j) => enc.wrap(c.Concat(c.BitVec.val(0, enc.k - b), c.Extract((j + 1) * b - 1, j * b, all)), to.elem));
  return { type: to, lanes };
}

/** The formula's name of a lane's k-th source (machine.ts routes them in this order). */
const SLOT_NAMES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];

function applySym(c: Ctx, enc: Encoder, e: Intrinsic, args: readonly SymReg[], imm: BV | number | undefined): SymReg {
  const views = args.map((a, k) => reinterpretSym(c, enc, a, e.args[k]!));
  const f = laneFormula(e);
  const immBV = typeof imm === 'number' ? enc.val(BigInt(imm)) : imm;
  const lanes = Array.from({ length: e.result.lanes }, (_, i) => {
    if (e.routing.k !== 'lanewise' && typeof imm !== 'number' && imm !== undefined) throw new Error(`${e.name} routes by a symbolic immediate`);
    const src = sources(e, i, typeof imm === 'number' ? imm : undefined);
    const env = (name: string): BV => (name[0] === 'n' ? immBV! : views[src[SLOT_NAMES.indexOf(name[0]!)]![0]]!.lanes[src[SLOT_NAMES.indexOf(name[0]!)]![1]]!);
    return enc.expr(f, env);
  });
  return { type: e.result, lanes };
}

/** Does the interpreter reproduce a difference at these lane and constant values? */
function replaysLowering(r: LoweringRule, lhs: FExpr, pre: FExpr | undefined, terms: readonly RhsTerm[], vars: readonly Extract<FExpr, { k: 'var' }>[], consts: ReadonlyMap<string, bigint>, lanes: ReadonlyMap<string, readonly bigint[]>): boolean {
  try {
    const regs = new Map(vars.map((v) => [baseName(v.name), split(v, lanes.get(baseName(v.name))!, REG_BITS[r.target])]));
    const got = joinLanes(terms.map((t) => evalRhs(t, (name, i) => regs.get(name)![i]!, (e, args, imm) => applyIntrinsic(e, args, imm), consts)), lhs);
    const names = [...vars.map((v) => baseName(v.name)), ...consts.keys()];
    const slot = (nm: string) => names.indexOf(baseName(nm));
    const fl = compileLane(lhs, slot);
    const fpre = pre ? compileLane(pre, slot) : () => 1n;
    return got.some((g, i) => {
      const row = [...vars.map((v) => lanes.get(baseName(v.name))![i]!), ...consts.values()];
      return fpre(row) !== 0n && fl(row) !== g;
    });
  } catch (err) {
    // An immediate out of its entry's range: the rule emits C that does not compile.
    if (err instanceof UserError) return true;
    throw err;
  }
}

export function proveLowering(r: LoweringRule, timeoutMs = 30_000): Promise<Proof> {
  return withZ3((c) =>
    timed(async () => {
      const p = parseLeft(r);
      const terms = rhsOf(r);
      const routing = checkRouting(r, p.lhs, terms, new Map());
      if (routing) return { status: 'refuted', reason: routing };
      const n = LANES[r.target];
      const all = wildcards([p.lhs, p.pre]);
      const entries = terms.flatMap(function calls(t: RhsTerm): Intrinsic[] {
        return t.k === 'part' ? [] : [t.entry, ...t.args.flatMap(calls)];
      });
      const widest = Math.max(widestBits([p.lhs, ...(p.pre ? [p.pre] : [])]), widestBits(entries.map(laneFormula)));
      const bounds = boundsInPre(p.pre);
      const vars = all.filter((v) => !isConstWildcard(v.name));
      const { query, ...answer } = await decideAll(c, widest, timeoutMs, (enc) => {
        const consts = new Map(all.filter((v) => isConstWildcard(v.name)).map((v) => [baseName(v.name), enc.fresh(`c.${v.name}`, v.type)]));
        const lanes = new Map(vars.map((v) => [baseName(v.name), Array.from({ length: n }, (_, i) => enc.fresh(`${v.name}.${i}`, declaredType(v, bounds)))]));
        const facts: ZBool[] = [...[...consts.values()].map((s) => s.inRange), ...[...lanes.values()].flatMap((ls) => ls.map((s) => s.inRange))];
        const envAt = (i: number) => (nm: string): BV => consts.get(baseName(nm))?.v ?? lanes.get(baseName(nm))![i]!.v;
        const per = (v: Extract<FExpr, { k: 'var' }>) => REG_BITS[r.target] / v.type.bits;
        const leaf = (name: string, index: number): SymReg => {
          const v = vars.find((x) => baseName(x.name) === name)!;
          const ls = lanes.get(name)!.slice(index * per(v), (index + 1) * per(v)).map((s) => s.v);
          return { type: { elem: v.type, lanes: per(v) }, lanes: ls };
        };
        const immsOut: ZBool[] = [];
        const evalTerm = (t: RhsTerm): SymReg => {
          if (t.k === 'part') return leaf(t.var, t.index);
          let imm: BV | number | undefined = typeof t.imm === 'number' ? t.imm : undefined;
          if (typeof t.imm === 'string') {
            const [name, delta] = immParts(t.imm);
            const s = consts.get(name)!.v.add(enc.val(BigInt(delta)));
            imm = s;
            const [lo, hi] = t.entry.imm!;
            immsOut.push(c.Or(s.slt(enc.val(BigInt(lo))), s.sgt(enc.val(BigInt(hi)))));
          }
          return applySym(c, enc, t.entry, t.args.map(evalTerm), imm);
        };
        const out = terms.map(evalTerm).flatMap((reg) => reinterpretSym(c, enc, reg, { elem: p.lhs.type, lanes: regBits(reg.type) / p.lhs.type.bits }).lanes);
        const pres = Array.from({ length: n }, (_, i) => (p.pre ? enc.expr(p.pre, envAt(i)).neq(enc.val(0n)) : c.Bool.val(true)));
        const differs = Array.from({ length: n }, (_, i) => c.And(pres[i]!, enc.expr(p.lhs, envAt(i)).neq(out[i]!)));
        // One query per way to be wrong: a lane that differs, or an immediate out of range. The rule
        // is proved when every query is unsatisfiable; each query holds only its lane's multipliers
        // instead of the whole vector's, which is what brings the 16-bit high-half products of a
        // full register within reach.
        const bads = immsOut.length > 0 ? [...differs, c.And(c.Or(...pres), c.Or(...immsOut))] : differs;
        const show = (get: (x: BV) => bigint) => {
          const cvals = new Map([...consts].map(([nm, s]) => [nm, get(s.v)]));
          const lvals = new Map([...lanes].map(([nm, ls]) => [nm, ls.map((s) => get(s.v))]));
          const at = [...[...cvals].map(([nm, v]) => `${nm}=${v}`), ...[...lvals].map(([nm, ls]) => `${nm}=[${ls.join(',')}]`)].join(' ');
          return { replays: replaysLowering(r, p.lhs, p.pre, terms, vars, cvals, lvals), at };
        };
        return { facts, bads, show };
      });
      return query !== undefined && query < n && answer.status === 'unknown' ? { ...answer, reason: `lane ${query}: ${answer.reason}` } : answer;
    }),
  );
}

/** How a verdict was reached: every input enumerated, Z3, or neither (sampled, with the reason). */
export type ProofKind = 'exhaustive' | 'z3' | 'none';

export interface ProvedVerdict extends RuleVerdict {
  readonly proof: ProofKind;
  /** why a sampled rule is not proved */
  readonly reason?: string;
  /** with a Z3 proof: the slowest query's wall-clock milliseconds */
  readonly query_ms?: number;
}

/** The sampled verdicts of `verifyAll` proved with Z3 where it can within `timeoutMs` per rule. */
export async function proveSampled(verdicts: readonly RuleVerdict[], lifting: readonly RewriteRule[], lowering: readonly LoweringRule[], timeoutMs: number): Promise<ProvedVerdict[]> {
  const out: ProvedVerdict[] = [];
  for (const v of verdicts) {
    if (v.status !== 'sampled') {
      out.push({ ...v, proof: v.status === 'proved' ? 'exhaustive' : 'none' });
      continue;
    }
    const lr = lowering.find((r) => r.name === v.rule);
    const p = await isolated(() => (lr ? proveLowering(lr, timeoutMs) : proveLifting(lifting.find((r) => r.name === v.rule)!, timeoutMs)));
    // A fresh Z3 (a fresh wasm heap) for every rule: the terms of earlier rules stay in the heap
    // until their JS handles are collected, and a heap that cannot grow aborts the whole process
    // from the collector's callbacks, outside any proof a catch could guard.
    await shutdownZ3();
    const ms = v.ms + p.ms;
    if (p.status === 'proved') out.push({ ...v, status: 'proved', proof: 'z3', ms, query_ms: Math.round(p.queryMs ?? p.ms) });
    else if (p.status === 'refuted') out.push({ ...v, status: 'refuted', proof: 'z3', counterexample: p.reason!, ms });
    else out.push({ ...v, proof: 'none', reason: p.reason!, ms });
  }
  return out;
}
