// The lowering function 𝓛 of fig. 2.9 (§2.6): an algorithm becomes a Tgt? program with the default
// eager schedule — one allocation and one labelled loop nest per func, in definition order, with
// bounds holes (def. 2.14) where bounds inference must supply intervals. spec/lowering.md names
// each equation of the figure; the rule IDs below are those names.
import { type Expr, type Hole, type RefLabel, hole, substExpr, vr } from '../expr/ast.js';
import type { Func, Pipeline, RVar, Stage } from '../alg-semantics/ast.js';
import { outputFunc } from '../alg-semantics/input.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { loopVarName, stageLabel } from '../target-semantics/loop-name.js';

/** Receives each equation of fig. 2.9 as it is applied, with what it was applied to. */
export type LowerTrace = (rule: string, subject: string) => void;

/** The window parameters x^min, x^len of output dimension x (fig. 2.9, [LOWER-PIPELINE]). */
export function windowParams(x: string): { dim: string; min: string; len: string } {
  return { dim: x, min: `${x}.min`, len: `${x}.len` };
}

/** Statement sequencing that does not wrap a single statement in a block. */
export function seq(body: readonly Stmt[]): Stmt {
  return body.length === 1 ? body[0]! : { k: 'seq', body };
}

/** A compute hole ?cpu f_x^i (def. 2.14): the final stage's hole carries no stage. */
function cpuHole(f: Func, x: string, i: number, end: 'min' | 'len'): Expr {
  const h: Hole = i === f.stages.length - 1
    ? { kind: 'cpu', end, func: f.name, dim: x }
    : { kind: 'cpu', end, func: f.name, dim: x, stage: i };
  return hole(h);
}

/** The label of the store of stage i: none for the final stage, `@s<i>` otherwise. */
function storeLabel(f: Func, i: number): RefLabel {
  return i === f.stages.length - 1 ? {} : { stage: i };
}

/**
 * [f^{i-1}/f] of fig. 2.9 on an expression: references to f itself observe the previous stage;
 * references to other funcs observe their final stage and keep no label.
 */
function relabelSelf(e: Expr, f: string, i: number): Expr {
  switch (e.k) {
    case 'access': {
      const args = e.args.map((a) => relabelSelf(a, f, i));
      return e.func === f ? { ...e, args, ref: { stage: i - 1 } } : { ...e, args };
    }
    case 'op':
      return { ...e, args: e.args.map((a) => relabelSelf(a, f, i)) };
    default:
      return e;
  }
}

/**
 * [LOWER-PURE] 𝓛_P: wraps s in a loop over ?cpu f_x^i for each pure dimension x of stage i, that
 * is each x whose coordinate is x itself; x_1 is wrapped first and so is innermost. Dimensions not
 * pure in the stage get no loop (def. 2.8).
 */
function lowerPure(f: Func, i: number, lhs: readonly Expr[], s: Stmt, trace: LowerTrace): Stmt {
  return f.vars.reduce<Stmt>((body, x, d) => {
    const e = lhs[d]!;
    if (!(e.k === 'var' && e.name === x)) return body;
    trace('LOWER-PURE', loopVarName(f.name, i, x));
    return {
      k: 'for', var: loopVarName(f.name, i, x), trav: 'serial',
      min: cpuHole(f, x, i, 'min'), len: cpuHole(f, x, i, 'len'), body, ...(e.loc ? { loc: e.loc } : {}),
    };
  }, s);
}

/**
 * [LOWER-RDOM] 𝓛_R: one loop per reduction variable, r_1 innermost (§2.4.1), over the rdom's own
 * bounds: startup expressions (def. 2.9), so they need no hole and no renaming.
 */
function lowerRdom(f: Func, i: number, rdom: readonly RVar[], s: Stmt, trace: LowerTrace): Stmt {
  return rdom.reduce<Stmt>((body, r) => {
    trace('LOWER-RDOM', loopVarName(f.name, i, r.name));
    return { k: 'for', var: loopVarName(f.name, i, r.name), trav: 'serial', min: r.min, len: r.len, body, ...(r.loc ? { loc: r.loc } : {}) };
  }, s);
}

/**
 * [LOWER-STAGE] 𝓛_U: `if e_P then f^i[ē] <- e_B` inside the rdom loops inside the pure loops, with
 * self-references relabelled to stage i−1. The stage's pure and reduction variables are
 * alpha-renamed to their loop names (`x` ↦ `f.s<i>.x`) in its coordinates, value and predicate.
 */
function lowerStage(f: Func, i: number, u: Stage, trace: LowerTrace): Stmt {
  trace('LOWER-STAGE', stageLabel(f.name, i));
  const rename = new Map<string, Expr>(
    [...f.vars, ...u.rdom.map((r) => r.name)].map((v) => [v, vr(loopVarName(f.name, i, v))]),
  );
  const ex = (e: Expr) => relabelSelf(substExpr(e, rename), f.name, i);
  const loc = u.loc ? { loc: u.loc } : {};
  const store: Stmt = { k: 'store', func: f.name, ref: storeLabel(f, i), idx: u.lhs.map(ex), value: ex(u.rhs), ...loc };
  const guarded: Stmt = { k: 'if', cond: ex(u.pred), then: store, else: { k: 'nop' }, ...loc };
  return lowerPure(f, i, u.lhs, lowerRdom(f, i, u.rdom, guarded, trace), trace);
}

/** [LOWER-BODY] 𝓛_B: the stages in order, stage i under `label f.s<i>`. */
function lowerBody(f: Func, trace: LowerTrace): Stmt {
  trace('LOWER-BODY', f.name);
  return seq(f.stages.map((u, i) => ({ k: 'label', name: stageLabel(f.name, i), body: lowerStage(f, i, u, trace), ...(u.loc ? { loc: u.loc } : {}) })));
}

/** [LOWER-FUNC] 𝓛(fun f(x̄) = B): `allocate f(?mem f_x̄); label f: 𝓛_B(f, x̄, B)`. */
function lowerFunc(f: Func, trace: LowerTrace): Stmt[] {
  trace('LOWER-FUNC', f.name);
  const loc = f.loc ? { loc: f.loc } : {};
  const dims = f.vars.map((x) => ({
    dim: x,
    min: hole({ kind: 'mem', end: 'min', func: f.name, dim: x }),
    len: hole({ kind: 'mem', end: 'len', func: f.name, dim: x }),
  }));
  return [
    { k: 'allocate', func: f.name, dims, ...loc },
    { k: 'label', name: f.name, body: lowerBody(f, trace), ...loc },
  ];
}

/**
 * [LOWER-PIPELINE] 𝓛(pipeline f(p̄) = D): the funcs lowered in definition order; the header gains
 * x^min, x^len for every pure variable x of the output func.
 */
export function lower(p: Pipeline, trace: LowerTrace = () => {}): TgtProgram {
  trace('LOWER-PIPELINE', p.output);
  const out = outputFunc(p);
  return {
    output: p.output,
    params: [...p.params],
    window: out.vars.map(windowParams),
    body: seq(p.funcs.flatMap((f) => lowerFunc(f, trace))),
    ...(p.loc ? { loc: p.loc } : {}),
  };
}
