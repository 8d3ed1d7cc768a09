// Verifying rewrite rules (spec/fpir.md, [FPIR-VERIFY]). A lifting rule is an equivalence of two
// lane formulas ([FPIR-DOMAIN]). A lowering rule — the part Pitchfork left unverified — is run on
// whole logical vectors: the wildcards' lanes are split into registers, the intrinsic tree is
// interpreted with the table, and every result lane is compared with the FPIR left side where the
// precondition holds. Its routing is checked by tag evaluation ([FPIR-TAGS]): result lane i may
// depend on lane i of the wildcards only. Each rule is proved (every input enumerated), sampled,
// or refuted with a counterexample.
import { seededRng } from '../rng.js';
import { type FExpr, varsOf } from './ast.js';
import { compileLane } from './eval.js';
import { LIFTING_RULES, type RewriteRule } from './lift-rules.js';
import { parseLeft, parseRule } from './lift.js';
import { LANES, LOWERING_RULES, type LoweringRule, REG_BITS } from './lower-rules.js';
import { type Reg, type TagReg, applyIntrinsic, reinterpret, routeTags } from './machine.js';
import { baseName, isConstWildcard } from './match.js';
import { printFpir } from './print.js';
import { type RhsTerm, evalRhs, parseRhs } from './rhs.js';
import { domainOf } from './sample.js';
import { type Equivalence, compareFormulas } from './table-check.js';
import { typeName } from './types.js';

export interface RuleVerdict extends Equivalence {
  readonly rule: string;
  readonly kind: 'lifting' | 'lowering';
  readonly target?: string;
  readonly ms: number;
}

export interface VerifyOptions {
  /** rows sampled when the domain is too large to enumerate */
  readonly samples?: number;
  readonly seed?: number;
}

export function verifyLifting(r: RewriteRule, o: VerifyOptions = {}): RuleVerdict {
  const t0 = performance.now();
  const p = parseRule(r);
  const eq = compareFormulas(p.lhs, p.rhs, o.samples ?? 20_000, o.seed ?? 7, p.pre);
  return { rule: r.name, kind: 'lifting', ...eq, ms: performance.now() - t0 };
}

const parsedRhs = new WeakMap<LoweringRule, RhsTerm[]>();
export function rhsOf(r: LoweringRule): RhsTerm[] {
  let t = parsedRhs.get(r);
  if (!t) parsedRhs.set(r, (t = parseRhs(r.rhs, `${r.name} (right)`)));
  return t;
}

/** The registers of one wildcard's lanes, lowest lanes first. */
export function split(v: Extract<FExpr, { k: 'var' }>, lanes: readonly bigint[], regBits: number): Reg[] {
  const per = regBits / v.type.bits;
  return Array.from({ length: lanes.length / per }, (_, k) => ({ type: { elem: v.type, lanes: per }, lanes: lanes.slice(k * per, (k + 1) * per) }));
}

/** The result lanes of a right side: its registers concatenated and read as `lhs.type`. */
export function joinLanes(regs: readonly Reg[], lhs: FExpr): bigint[] {
  return regs.flatMap((r) => reinterpret(r, { elem: lhs.type, lanes: (r.type.elem.bits * r.type.lanes) / lhs.type.bits }).lanes);
}

/** `FPIR-TAGS` for a rule: the lanes each result lane depends on, or a message naming a stray one. */
export function checkRouting(r: LoweringRule, lhs: FExpr, terms: readonly RhsTerm[], consts: ReadonlyMap<string, bigint>): string | undefined {
  const n = LANES[r.target];
  const vars = varsOf(lhs).filter((v) => !isConstWildcard(v.name));
  const leaf = (name: string, index: number): TagReg => {
    const v = vars.find((x) => baseName(x.name) === name)!;
    const bytesPerLane = v.type.bits / 8;
    const bytes = REG_BITS[r.target] / 8;
    return { bits: REG_BITS[r.target], bytes: Array.from({ length: bytes }, (_, b) => new Set([`${name}:${index * (bytes / bytesPerLane) + Math.floor(b / bytesPerLane)}`])) };
  };
  const out = terms.flatMap((t) => evalRhs(t, leaf, (e, args, imm) => routeTags(e, args, imm), consts).bytes);
  const w = lhs.type.bits / 8;
  if (out.length !== n * w) return `the right side gives ${out.length} bytes, the left ${n * w}`;
  for (let i = 0; i < n; i++) {
    for (let b = 0; b < w; b++) {
      const stray = [...out[i * w + b]!].find((tag) => Number(tag.split(':')[1]) !== i);
      if (stray !== undefined) return `result lane ${i} reads lane ${stray.replace(':', ' ')}: the lanes are routed out of order`;
    }
  }
  return undefined;
}

export function verifyLowering(r: LoweringRule, o: VerifyOptions = {}): RuleVerdict {
  const t0 = performance.now();
  const p = parseLeft(r);
  const terms = rhsOf(r);
  const n = LANES[r.target];
  const all = [...varsOf(p.lhs), ...(p.pre ? varsOf(p.pre) : [])];
  const consts = [...new Map(all.filter((v) => isConstWildcard(v.name)).map((v) => [baseName(v.name), v])).values()];
  const vars = [...new Map(all.filter((v) => !isConstWildcard(v.name)).map((v) => [baseName(v.name), v])).values()];
  const rng = seededRng(o.seed ?? 11);
  // Constants are enumerated only when they are 8-bit; wider ones are sampled.
  const constDom = domainOf(consts.map((c) => c.type), 64, rng, 256);
  // Sampled constants multiply the work: then the lanes are sampled too.
  const dom = constDom.exhaustive ? domainOf(vars.map((v) => v.type), o.samples ?? 20_000, rng) : domainOf(vars.map((v) => v.type), 2048, rng, 256);
  const done = (eq: Equivalence): RuleVerdict => ({ rule: r.name, kind: 'lowering', target: r.target, ...eq, ms: performance.now() - t0 });
  // Lane rows hold the wildcards' values, then the constants'.
  const names = [...vars, ...consts].map((v) => baseName(v.name));
  const slot = (nm: string) => names.indexOf(baseName(nm));
  const fl = compileLane(p.lhs, slot);
  const fpre = p.pre && compileLane(p.pre, slot);
  let checked = 0;
  for (const crow of constDom.rows) {
    const cmap = new Map(consts.map((c, i) => [baseName(c.name), crow[i]!]));
    const full = dom.rows.map((row) => [...row, ...crow]);
    // Constants that break the precondition in every lane: the rule does not apply to them.
    if (fpre && !full.some((row) => fpre(row) !== 0n)) continue;
    const routing = checkRouting(r, p.lhs, terms, cmap);
    if (routing) return done({ status: 'refuted', checked, counterexample: routing });
    for (let start = 0; start < full.length; start += n) {
      const rows = Array.from({ length: n }, (_, j) => full[(start + j) % full.length]!);
      const regs = new Map(vars.map((v, k) => [baseName(v.name), split(v, rows.map((row) => row[k]!), REG_BITS[r.target])]));
      const got = joinLanes(terms.map((t) => evalRhs(t, (name, i) => regs.get(name)![i]!, (e, args, imm) => applyIntrinsic(e, args, imm), cmap)), p.lhs);
      for (let j = 0; j < n; j++) {
        if (fpre && fpre(rows[j]!) === 0n) continue;
        checked++;
        const want = fl(rows[j]!);
        if (got[j] !== want) {
          const at = names.map((nm, k) => `${nm}=${rows[j]![k]}`).join(' ');
          return done({ status: 'refuted', checked, counterexample: `lane ${j}, ${at}: ${printFpir(p.lhs)} = ${want} (${typeName(p.lhs.type)}), the instructions give ${got[j]}` });
        }
      }
    }
  }
  return done({ status: constDom.exhaustive && dom.exhaustive ? 'proved' : 'sampled', checked });
}

// implements [FPIR-VERIFY]
/** Every shipped rule (or the given ones), lifting first. */
export function verifyAll(lifting: readonly RewriteRule[] = LIFTING_RULES, lowering: readonly LoweringRule[] = LOWERING_RULES, o: VerifyOptions = {}): RuleVerdict[] {
  return [...lifting.map((r) => verifyLifting(r, o)), ...lowering.map((r) => verifyLowering(r, o))];
}
