// inline(f) (spec/schedule.md, [INLINE]): a func without update stages is a function of its
// coordinates alone, so each read f[ā] may be replaced by f's defining expression with ā for its
// variables; `allocate f` and `label f` then go away. This is Halide's default for funcs it is
// not told where to compute, and what lets a Halide-style schedule be stated in refsem.
import { type Expr, freeVars, substExpr, walkExpr } from '../expr/ast.js';
import { isError, toBig } from '../expr/value.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { mapStmtExprs } from '../target-semantics/holes.js';
import { stageLabel } from '../target-semantics/loop-name.js';
import { mapChildren } from '../target-semantics/walk.js';
import { firstValid, funcsOf, labelOf, requireLabel, stageCount } from './loops.js';
import { type Directive, defineDirective } from './plugin.js';
import { inlineObligations } from './obligations.js';

export interface InlineArgs {
  readonly func: string;
}

/** f's definition read off its computation: the loop variable of each dimension and the stored value. */
interface Definition {
  readonly vars: readonly string[];
  readonly value: Expr;
}

/**
 * The definition of f when its computation is still the nest lowering made for a pure stage
 * (fig. 2.9): `label f: label f.s0: for … for … if 1 then f[v₁, …, vₙ] <- e`, the loops over
 * distinct variables vᵢ in any order, all serial. Anything else (a split, a fused loop, a parallel,
 * vectorized or unrolled loop, a specialization) means loop directives were aimed at f, which
 * inlining would silently discard.
 */
function definitionOf(t: TgtProgram, f: string): Definition | undefined {
  const lab = labelOf(t, f)?.stmt;
  if (lab?.body.k !== 'label' || lab.body.name !== stageLabel(f, 0)) return undefined;
  let s: Stmt = lab.body.body;
  const loopVars = new Set<string>();
  while (s.k === 'for' && s.trav === 'serial') {
    loopVars.add(s.var);
    s = s.body;
  }
  if (s.k !== 'if' || s.cond.k !== 'const' || isError(s.cond.value) || toBig(s.cond.value) === 0n || s.else.k !== 'nop') return undefined;
  const st = s.then;
  if (st.k !== 'store' || st.func !== f || st.ref.stage !== undefined || st.ref.spec !== undefined) return undefined;
  const vars = st.idx.map((e) => (e.k === 'var' ? e.name : ''));
  if (new Set(vars).size !== vars.length || vars.length !== loopVars.size || !vars.every((v) => loopVars.has(v))) return undefined;
  let selfRead = false;
  walkExpr(st.value, (e) => void (e.k === 'access' && e.func === f && (selfRead = true)));
  // Only f's own variables and the program's parameters may occur in e: any other variable (a
  // hand-written program may mention an enclosing loop's) would mean something else at a reader.
  const global = new Set([...loopVars, ...t.params, ...t.window.flatMap((w) => [w.min, w.len])]);
  const closed = [...freeVars(st.value)].every((v) => global.has(v));
  return selfRead || !closed ? undefined : { vars, value: st.value };
}

/** Reads of f replaced by its definition, innermost reads first (f's arguments may read f). */
function substituteReads(e: Expr, f: string, def: Definition): Expr {
  switch (e.k) {
    case 'access': {
      const args = e.args.map((a) => substituteReads(a, f, def));
      if (e.func !== f) return { ...e, args };
      return substExpr(def.value, new Map(def.vars.map((v, i) => [v, args[i]!])));
    }
    case 'op':
      return { ...e, args: e.args.map((a) => substituteReads(a, f, def)) };
    default:
      return e;
  }
}

const ownStmt = (s: Stmt, f: string): boolean => (s.k === 'allocate' && s.func === f) || (s.k === 'label' && s.name === f);

/** The statement without `allocate f` and `label f`, wherever they are. */
function dropFunc(s: Stmt, f: string): Stmt {
  if (s.k === 'seq') {
    const body = s.body.filter((b) => !ownStmt(b, f)).map((b) => dropFunc(b, f));
    return body.length === 0 ? { k: 'nop' } : body.length === 1 ? body[0]! : { ...s, body };
  }
  return ownStmt(s, f) ? { k: 'nop' } : mapChildren(s, (c) => dropFunc(c, f));
}

export const inline: Directive<InlineArgs> = defineDirective<InlineArgs>({
  name: 'inline',
  rule: 'INLINE',
  phase: 'compute',
  summary: 'replace every read of a func without update stages by its definition',
  obligations: inlineObligations,
  params: [{ name: 'func', type: 'func' }],
  validate(t, a, ctx) {
    requireLabel(t, a.func);
    if (a.func === t.output) {
      ctx.reject('INLINE-OUTPUT', `'${a.func}' is the output func; its buffer is what the program returns`, 'inline the funcs it reads instead');
    }
    const n = stageCount(t, a.func);
    if (n !== 1) {
      ctx.reject('INLINE-PURE', `'${a.func}' has ${n} stages; only a func without update stages is a function of its coordinates alone`,
        `compute '${a.func}' at the root or with compute-at instead`);
    }
    if (!definitionOf(t, a.func)) {
      ctx.reject('INLINE-NEST', `the computation of '${a.func}' is no longer the loop nest lowering made (a directive changed its loops or placed another func inside them), and inlining would discard what it did`,
        `drop the directives on the loops of '${a.func}': an inlined func has no loops`);
    }
  },
  apply(t, a) {
    const def = definitionOf(t, a.func)!;
    const body = mapStmtExprs(dropFunc(t.body, a.func), (e) => substituteReads(e, a.func, def));
    return { ...t, body };
  },
  generate(t, rng, ctx) {
    return firstValid(rng, funcsOf(t).map((func) => ({ func })), (c) => ctx.valid(t, c));
  },
});

