// specialize(f, c1, …, cn) (§2.8.1): `label f: s` becomes
// `label f: if c1 then s⟨1⟩ else if c2 then s⟨2⟩ … else s⟨0⟩`. Copy j renames f's loops to
// ⟨f, i, j, v⟩ and puts j on the stage-tagged holes and references of f and on every store to f;
// the final stage's hole is shared by all specializations (def. 2.14), so it stays.
import type { Expr } from '../expr/ast.js';
import { cst, op, vr } from '../expr/ast.js';
import type { Stmt } from '../target-semantics/ast.js';
import { loopVarName, parseLoopName } from '../target-semantics/loop-name.js';
import { replaceInProgram } from '../target-semantics/walk.js';
import { firstValid, funcsOf, isSpecialized, requireLabel, requireStartup } from './loops.js';
import { type Directive, defineDirective } from './plugin.js';
import { specializeObligations } from './obligations.js';

export interface SpecializeArgs {
  readonly func: string;
  readonly conds: readonly Expr[];
}

/** Copy j of f's statement (j ≥ 1). */
export function specializationCopy(s: Stmt, f: string, j: number): Stmt {
  const name = (v: string): string => {
    const n = parseLoopName(v);
    return n && n.func === f && n.spec === 0 ? loopVarName(f, n.stage, n.v, j) : v;
  };
  const ex = (e: Expr): Expr => {
    switch (e.k) {
      case 'var':
        return { ...e, name: name(e.name) };
      case 'hole':
        return e.hole.func === f && e.hole.stage !== undefined ? { ...e, hole: { ...e.hole, spec: j } } : e;
      case 'access': {
        const args = e.args.map(ex);
        return e.func === f && e.ref?.stage !== undefined ? { ...e, args, ref: { stage: e.ref.stage, spec: j } } : { ...e, args };
      }
      case 'op':
        return { ...e, args: e.args.map(ex) };
      default:
        return e;
    }
  };
  const st = (s: Stmt): Stmt => {
    switch (s.k) {
      case 'nop':
        return s;
      case 'assert':
        return { ...s, cond: ex(s.cond) };
      case 'seq':
        return { ...s, body: s.body.map(st) };
      case 'allocate':
        return { ...s, dims: s.dims.map((d) => ({ ...d, min: ex(d.min), len: ex(d.len) })) };
      case 'store':
        // Every store of f records j, the final stage's too (printed f@k<j>[…]): its hole is
        // shared, but the stage before it is this specialization's ([B-STAGE-COVER]).
        return { ...s, idx: s.idx.map(ex), value: ex(s.value), ref: s.func === f ? { ...s.ref, spec: j } : s.ref };
      case 'if':
        return { ...s, cond: ex(s.cond), then: st(s.then), else: st(s.else) };
      case 'for':
        return { ...s, var: name(s.var), min: ex(s.min), len: ex(s.len), body: st(s.body) };
      case 'let':
        return { ...s, var: name(s.var), value: ex(s.value), body: st(s.body) };
      case 'label':
        return { ...s, body: st(s.body) };
    }
  };
  return st(s);
}

export const specialize: Directive<SpecializeArgs> = defineDirective<SpecializeArgs>({
  name: 'specialize',
  rule: 'SPECIALIZE',
  phase: 'specialization',
  summary: 'copy a func\'s computation behind startup conditions, one copy per condition',
  obligations: specializeObligations,
  params: [
    { name: 'func', type: 'func' },
    { name: 'conds', type: 'exprs', key: 'when' },
  ],
  validate(t, a, ctx) {
    requireLabel(t, a.func);
    const before = ctx.history.find((c) => c.directive.name === 'specialize' && (c.args as SpecializeArgs).func === a.func);
    if (before || isSpecialized(t, a.func)) {
      ctx.reject('SPECIALIZE-ONCE', `'${a.func}' is already specialized${before?.loc ? ` (at ${before.loc.file}:${before.loc.line}:${before.loc.col})` : ''}`,
        'give all conditions for a func in one specialize directive');
    }
    a.conds.forEach((c, i) => requireStartup(t, c, `condition ${i + 1}`));
  },
  apply(t, a) {
    const site = requireLabel(t, a.func);
    return replaceInProgram(t, site.path, (l) => {
      const s = (l as Extract<Stmt, { k: 'label' }>).body;
      const chain = a.conds.reduceRight<Stmt>((els, c, i) => ({ k: 'if', cond: c, then: specializationCopy(s, a.func, i + 1), else: els }), s);
      return { ...l, body: chain } as Stmt;
    });
  },
  generate(t, rng, ctx) {
    const ps = [...t.params, ...t.window.map((w) => w.len)];
    const conds: Expr[][] = [[cst(0)], [cst(1)], ...ps.flatMap((p) => [[op('>', vr(p), cst(3))], [op('<', vr(p), cst(2)), op('=', op('mod', vr(p), cst(2)), cst(0))]])];
    const cands = funcsOf(t).flatMap((func) => conds.map((cs) => ({ func, conds: cs })));
    return firstValid(rng, cands, (c) => ctx.valid(t, c));
  },
});
