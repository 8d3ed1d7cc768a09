// The spec evaluator of algorithms: the big-step rules of fig. 2.6 applied literally, by
// substitution and rdom unrolling, building the derivation tree with rule IDs (spec/alg.md).
// It is exponential by nature, so every derivation node costs one step of a budget; running out
// is the named result `budget`, never a hang. fast-eval.ts computes the same values quickly.
import { UserError } from '../diag.js';
import { type Expr, cst, op, substExpr, vr } from '../expr/ast.js';
import { printExpr } from '../expr/print.js';
import { parseExprText } from '../expr/parse.js';
import { applyOp } from '../expr/ops.js';
import { E_RDOM, type Int, type Value, isError, showValue } from '../expr/value.js';
import type { Input, Pipeline, RVar } from './ast.js';
import { type InputLike, checkInput, inputOf, outputFunc } from './input.js';
import { forEachPoint } from '../expr/window.js';
import { StepLimitExceeded, makePointEvaluator } from './fast-eval.js';

export interface Derivation {
  readonly rule: string;
  /** The judgment, e.g. `f(3) ⇓ 9` or `g(3) + g(4) ⇓ 25`, with a note on the func's stages. */
  readonly text: string;
  readonly value: Value;
  readonly children: readonly Derivation[];
}

export type SpecResult =
  | { readonly kind: 'value'; readonly value: Value; readonly tree: Derivation; readonly steps: number }
  | { readonly kind: 'budget'; readonly steps: number };

export const DEFAULT_BUDGET = 1_000_000;

/** A stage of D during evaluation: rdoms shrink as [RDOM-EVAL] unrolls them. */
interface DStage {
  readonly rdom: readonly RVar[];
  readonly lhs: readonly Expr[];
  readonly rhs: Expr;
  readonly pred: Expr;
  /** Which source stage this is and which reduction variables unrolling has fixed. */
  readonly tag: string;
}
interface DFunc {
  readonly name: string;
  readonly vars: readonly string[];
  readonly stages: readonly DStage[];
  /** the func's own definition, not yet cut short or unrolled: its values are the algorithm's */
  readonly whole?: boolean;
}
type Defs = readonly DFunc[];

class BudgetExceeded extends Error {}

const sub = (e: Expr, s: ReadonlyMap<string, Expr>): Expr => substExpr(e, s);
const consts = (names: readonly string[], vals: readonly Value[]): Map<string, Expr> =>
  new Map(names.map((n, i) => [n, cst(vals[i]!)]));

function substStage(s: DStage, m: ReadonlyMap<string, Expr>, tag = s.tag): DStage {
  return {
    rdom: s.rdom.map((r) => ({ ...r, min: sub(r.min, m), len: sub(r.len, m) })),
    lhs: s.lhs.map((e) => sub(e, m)), rhs: sub(s.rhs, m), pred: sub(s.pred, m), tag,
  };
}

/**
 * Where a derivation stops being built: below `depth` levels, a func access is not derived but
 * its value is taken from `value` (the fast evaluator, which agrees with these rules on every
 * valid program), so `refsem explain --depth N` costs work in proportion to what it shows.
 */
export interface DerivationCut {
  readonly depth: number;
  readonly value: (func: string, point: readonly Value[]) => Value;
}

/**
 * A value oracle whose step limit counts as the derivation's budget running out. It is made at
 * its first use, inside the budget: compiling the evaluator already refuses an rdom larger than
 * the whole limit.
 */
function withinBudget(make: () => DerivationCut['value']): DerivationCut['value'] {
  let value: DerivationCut['value'] | undefined;
  return (f, c) => {
    try {
      value ??= make();
      return value(f, c);
    } catch (e) {
      if (e instanceof StepLimitExceeded) throw new BudgetExceeded();
      throw e;
    }
  };
}

/** The rule name of a func access whose derivation was cut (not a rule of fig. 2.6). */
export const NOT_EXPANDED = 'not expanded';

class Deriver {
  steps = 0;
  constructor(
    private readonly budget: number,
    private readonly cut?: DerivationCut,
  ) {}

  /** One step of the budget; every node and every unrolled reduction stage costs one. */
  private charge(): void {
    if (++this.steps > this.budget) throw new BudgetExceeded();
  }

  private node(rule: string, text: string, value: Value, children: Derivation[]): Derivation {
    this.charge();
    return { rule, text: `${text} ⇓ ${showValue(value)}`, value, children };
  }

  /** D; e ⇓ c, as a node at `level` of the tree */
  eval(d: Defs, e: Expr, level: number): Derivation {
    switch (e.k) {
      case 'const':
        return this.node('CONST-EVAL', printExpr(e, 'alg'), e.value, []);
      case 'op': {
        const args = e.args.map((a) => this.eval(d, a, level + 1));
        return this.node('OP-EVAL', printExpr(e, 'alg'), applyOp(e.op, args.map((a) => a.value)), args);
      }
      case 'access': {
        if (e.args.every((a) => a.k === 'const')) return this.lookup(d, e.func, e.args.map((a) => (a as { value: Value }).value), level);
        const args = e.args.map((a) => this.eval(d, a, level + 1));
        const look = this.lookup(d, e.func, args.map((a) => a.value), level + 1);
        return this.node('FUNC-ARG-EVAL', printExpr(e, 'alg'), look.value, [...args, look]);
      }
      default:
        // Valid programs substitute every variable before evaluating it (defs. 2.9, 2.10).
        throw new Error(`spec evaluator: stuck on ${printExpr(e, 'alg')} (is the program valid?)`);
    }
  }

  /** D; f[c̄] ⇓ c', as a node at `level` of the tree */
  lookup(d: Defs, f: string, c: readonly Value[], level: number): Derivation {
    const last = d[d.length - 1];
    if (!last) throw new Error(`spec evaluator: no func '${f}' in D (is the program valid?)`);
    const point = `${f}(${c.map(showValue).join(', ')})`;
    // Only a whole definition has the values the fast evaluator computes; an update stage reads
    // its func as the earlier stages left it, so that lookup is derived whatever the level.
    if (this.cut && level >= this.cut.depth && [...d].reverse().find((x) => x.name === f)?.whole) return this.node(NOT_EXPANDED, point, this.cut.value(f, c), []);
    const rest = d.slice(0, -1);
    if (last.name !== f) {
      const r = this.lookup(rest, f, c, level + 1);
      return this.node('FUNC-SKIP', `${point} past ${last.name}`, r.value, [r]);
    }
    const stages = last.stages;
    const u = stages[stages.length - 1]!;
    const xs = consts(last.vars, c);
    if (stages.length === 1) {
      const r = this.eval(rest, sub(u.rhs, xs), level + 1);
      return this.node('FUNC-EVAL', point, r.value, [r]);
    }
    const before: Defs = [...rest, { ...last, stages: stages.slice(0, -1), whole: false }];
    if (u.rdom.length === 0) {
      // select(ē = x̄ ∧ e_p, e_b, f[x̄]) with [c/x]: all three arguments are evaluated.
      const conj = [...u.lhs.map((e, i) => op('=', e, vr(last.vars[i]!))), u.pred].reduce((a, b) => op('and', a, b));
      const sel = sub(op('select', conj, u.rhs, { k: 'access', func: f, args: last.vars.map(vr) }), xs);
      const r = this.eval(before, sel, level + 1);
      return this.node('UPDATE-EVAL', `${point} at ${u.tag}`, r.value, [r]);
    }
    const mins = u.rdom.map((r) => this.eval(d, r.min, level + 1));
    const lens = u.rdom.map((r) => this.eval(d, r.len, level + 1));
    const bounds = [...mins, ...lens];
    if (bounds.some((b) => isError(b.value))) throw new Error('spec evaluator: rdom bound is an error value (is the program valid?)');
    if (lens.some((l) => (l.value as Int) < 0)) return this.node('RDOM-ERR', `${point} at ${u.tag}`, E_RDOM, bounds);
    // Unroll the outermost reduction variable r_k (r_1 is innermost, §2.4.1).
    const k = u.rdom.length - 1;
    const rk = u.rdom[k]!;
    const inner: DStage = { ...u, rdom: u.rdom.slice(0, k) };
    const unrolled: DStage[] = [];
    for (let i = 0n; i < BigInt(lens[k]!.value as Int); i++) {
      // Unrolling is work the budget must bound: an extent of 10^18 would otherwise never reach a node.
      this.charge();
      const v = applyOp('+', [mins[k]!.value, i <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(i) : i]);
      unrolled.push(substStage(inner, consts([rk.name], [v]), `${u.tag}, ${rk.name} = ${showValue(v)}`));
    }
    const r = this.lookup([...rest, { ...last, stages: [...stages.slice(0, -1), ...unrolled], whole: false }], f, c, level + 1);
    return this.node('RDOM-EVAL', `${point} at ${u.tag}`, r.value, [...bounds, r]);
  }
}

/** D with the parameters substituted ([c/p] of [REALIZE]). */
function defsOf(p: Pipeline, params: ReadonlyMap<string, Int>): Defs {
  const m = consts([...params.keys()], [...params.values()]);
  return p.funcs.map((f) => ({
    name: f.name, vars: f.vars, whole: true,
    stages: f.stages.map((s, j) => substStage({ ...s, tag: j === 0 ? 'stage 0' : `stage ${j}` }, m)),
  }));
}

function run(budget: number, f: (dv: Deriver) => Derivation, cut?: DerivationCut): SpecResult {
  const dv = new Deriver(budget, cut);
  try {
    const tree = f(dv);
    return { kind: 'value', value: tree.value, tree, steps: dv.steps };
  } catch (e) {
    if (e instanceof BudgetExceeded) return { kind: 'budget', steps: budget };
    if (e instanceof RangeError && /call stack/i.test(e.message)) return { kind: 'budget', steps: dv.steps };
    throw e;
  }
}

/** `f(3, -4)`: a func applied to constants, as a point to derive; undefined for any other text. */
export function parsePoint(text: string): { func: string; point: Value[] } | undefined {
  let e: Expr;
  try {
    e = parseExprText(text, 'alg', '<point>');
  } catch (err) {
    if (err instanceof UserError) return undefined;
    throw err;
  }
  if (e.k !== 'access' || !e.args.every((a) => a.k === 'const')) return undefined;
  return { func: e.func, point: e.args.map((a) => (a as { value: Value }).value) };
}

/** The derivation of one point of any func, for the given parameters. */
export function derivePoint(p: Pipeline, params: ReadonlyMap<string, Int>, func: string, point: readonly Value[], budget = DEFAULT_BUDGET, depth = Infinity): SpecResult {
  const g = p.funcs.find((h) => h.name === func);
  if (!g) throw new UserError(`unknown func '${func}'`, undefined, `the funcs are: ${p.funcs.map((h) => h.name).join(', ')}`);
  if (g.vars.length !== point.length) throw new UserError(`'${func}' has ${g.vars.length} dimensions, not ${point.length}`);
  for (const q of p.params) if (!params.has(q)) throw new UserError(`parameter '${q}' is not given`, undefined, `pass --param ${q}=INT`);
  const d = defsOf(p, params);
  const shown = [...params].map(([k, v]) => `${k} = ${showValue(v)}`).join(', ');
  const realized = func === p.output;
  // The REALIZE node is level 0 when there is one; the cut counts levels as the printing does.
  // The fast evaluator shares the budget: values below the depth may not cost more than the
  // derivation would have been allowed to.
  const cut: DerivationCut | undefined = depth === Infinity ? undefined : { depth, value: withinBudget(() => makePointEvaluator(p, params, { maxSteps: budget })) };
  return run(budget, (dv) => {
    const r = dv.lookup(d, func, point, realized ? 1 : 0);
    if (!realized) return r;
    const text = `realize ${p.output}(${shown}) at ${func}(${point.map(showValue).join(', ')}) ⇓ ${showValue(r.value)}`;
    return { rule: 'REALIZE', text, value: r.value, children: [r] };
  }, cut);
}

/** [REALIZE] over a window: each point's value, or `budget` if the budget (shared) runs out. */
export function realizeSpec(p: Pipeline, given: Input | InputLike, budget = DEFAULT_BUDGET): { kind: 'value'; values: Value[] } | { kind: 'budget' } {
  const input = inputOf(given);
  checkInput(p, input);
  const f = outputFunc(p);
  const d = defsOf(p, input.params);
  const values: Value[] = [];
  let left = budget;
  let out = true;
  forEachPoint(input.window, (c) => {
    if (!out) return;
    const r = run(left, (dv) => dv.lookup(d, f.name, c, 0));
    if (r.kind === 'budget') out = false;
    else {
      left -= r.steps;
      values.push(r.value);
    }
  });
  return out ? { kind: 'value', values } : { kind: 'budget' };
}

/** A derivation tree with repeated sub-derivations folded (see `foldRepeats`). */
export interface Folded<T> {
  readonly node: T;
  /** numbered in printing order, from 1 */
  readonly id: number;
  /** on a repeat: the id of the first occurrence, whose children are not repeated here */
  readonly sameAs?: number;
  readonly children: readonly Folded<T>[];
}

/**
 * Folds repeated sub-derivations: the first occurrence of a subtree is kept, a later identical one
 * (same rule, judgment and children) refers to it. Derivations of pipelines that read a producer
 * at the same point many times (stencils, histograms) shrink from exponential to linear size.
 * Identity is structural and computed once per node, so the fold is linear in the tree.
 */
export function foldRepeats<T extends { readonly text: string; readonly children: readonly T[] }>(root: T, ruleOf: (n: T) => string): Folded<T> {
  const intern = new Map<string, number>();
  const keyOf = new Map<T, number>();
  const key = (n: T): number => {
    const known = keyOf.get(n);
    if (known !== undefined) return known;
    const k = `${ruleOf(n)}\u0000${n.text}\u0000${n.children.map(key).join(',')}`;
    let id = intern.get(k);
    if (id === undefined) intern.set(k, (id = intern.size));
    keyOf.set(n, id);
    return id;
  };
  const firstSeen = new Map<number, number>();
  let counter = 0;
  const go = (n: T): Folded<T> => {
    const k = key(n);
    const id = ++counter;
    const first = firstSeen.get(k);
    if (first !== undefined && n.children.length > 0) return { node: n, id, sameAs: first, children: [] };
    firstSeen.set(k, id);
    return { node: n, id, children: n.children.map(go) };
  };
  return go(root);
}

/**
 * Prints a derivation, one judgment per line, children indented. A repeated sub-derivation is
 * printed once and referred to after (`same as line N`); below `depth` levels nothing is printed.
 */
export function showDerivation(t: Derivation, depth = Infinity): string {
  const lines: string[] = [];
  const lineOf = new Map<number, number>();
  const count = (n: Folded<Derivation>): number => 1 + n.children.reduce((a, ch) => a + count(ch), 0);
  const go = (n: Folded<Derivation>, level: number) => {
    const pad = '  '.repeat(level);
    lineOf.set(n.id, lines.length + 1);
    const head = `${pad}[${n.node.rule}] ${n.node.text}`;
    if (n.sameAs !== undefined) {
      lines.push(`${head}   (same as line ${lineOf.get(n.sameAs)})`);
      return;
    }
    lines.push(head);
    if (n.children.length === 0) return;
    if (level + 1 >= depth) {
      const k = n.children.reduce((a, ch) => a + count(ch), 0);
      lines.push(`${pad}  … ${k} more step${k === 1 ? '' : 's'} below, not shown`);
      return;
    }
    for (const ch of n.children) go(ch, level + 1);
  };
  go(foldRepeats(t, (n) => n.rule), 0);
  return lines.join('\n');
}
