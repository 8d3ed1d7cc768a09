// Which constructs a generated algorithm and input contain (`refsem fuzz --stats`): the evidence
// that the generators reach every construct the issue lists.
import { type Expr, walkExpr } from '../../expr/ast.js';
import { evalExpr } from '../../expr/eval.js';
import { isError, toBig } from '../../expr/value.js';
import type { Input, Pipeline } from '../../alg-semantics/ast.js';
import { type Stats, bump } from '../stats.js';

function exprConstructs(e: Expr, stats: Stats, self: string | undefined): void {
  walkExpr(e, (x) => {
    if (x.k === 'op') {
      bump(stats.constructs, `op ${x.op}`);
      const d = x.args[1];
      if ((x.op === 'div' || x.op === 'mod') && d?.k === 'const' && d.value === 0) bump(stats.constructs, `${x.op} by literal zero`);
    } else if (x.k === 'access') {
      bump(stats.constructs, x.func === self ? 'self-access' : 'func access');
      if (x.args.some((a) => { let dd = false; walkExpr(a, (y) => { if (y.k === 'access') dd = true; }); return dd; })) {
        bump(stats.constructs, 'data-dependent index');
      }
    } else if (x.k === 'const') {
      if (isError(x.value)) bump(stats.constructs, 'error constant');
      else if (toBig(x.value) > 2n ** 31n - 1n || toBig(x.value) < -(2n ** 31n)) bump(stats.constructs, 'constant beyond 32 bits');
    }
  });
}

export function observePipeline(p: Pipeline, input: Input, stats: Stats): void {
  const c = stats.constructs;
  bump(c, `pipelines with ${p.funcs.length} func${p.funcs.length > 1 ? 's' : ''}`);
  if (p.params.length > 0) bump(c, 'parameters');
  for (const f of p.funcs) {
    bump(c, `func of ${f.vars.length} dimension${f.vars.length > 1 ? 's' : ''}`);
    if (f.stages.length > 2) bump(c, 'func with several update stages');
    f.stages.forEach((s, j) => {
      if (j > 0) {
        bump(c, 'update stage');
        if (s.rdom.length > 0) bump(c, `rdom of ${s.rdom.length} dimension${s.rdom.length > 1 ? 's' : ''}`);
        for (const r of s.rdom) {
          const len = evalExpr(r.len, input.params);
          if (!isError(len) && len < 0) bump(c, 'negative rdom extent');
        }
        if (!(s.pred.k === 'const' && s.pred.value === 1)) bump(c, 'predicate');
        if (s.lhs.some((e, i) => !(e.k === 'var' && e.name === f.vars[i]))) bump(c, 'reduction dimension');
      }
      for (const e of [...(j > 0 ? s.lhs : []), s.rhs, s.pred]) exprConstructs(e, stats, j > 0 ? f.name : undefined);
    });
  }
  if (input.window.some(([, l]) => l === 0)) bump(c, 'empty window');
}
