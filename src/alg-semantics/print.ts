// Printer for algorithms in the concrete syntax of spec/syntax.md. parsePipeline(printPipeline(p))
// equals p up to source locations (property-tested in test/alg-semantics/roundtrip.test.ts).
import { printExpr } from '../expr/print.js';
import type { Expr } from '../expr/ast.js';
import type { Func, Pipeline, RVar, Stage } from './ast.js';

const ex = (e: Expr): string => printExpr(e, 'alg');

const isTrue = (e: Expr): boolean => e.k === 'const' && e.value === 1;

export function printRVar(r: RVar): string {
  return `${r.name} = (${ex(r.min)}, ${ex(r.len)})`;
}

/** One update stage, without its terminating ';'. */
export function printUpdate(s: Stage): string {
  const rdom = s.rdom.length > 0 ? `rdom(${s.rdom.map(printRVar).join(', ')}) in ` : '';
  const pred = isTrue(s.pred) ? '' : ` if ${ex(s.pred)}`;
  return `${rdom}(${s.lhs.map(ex).join(', ')}) <- ${ex(s.rhs)}${pred}`;
}

export function printFunc(f: Func): string {
  const head = `func ${f.name}(${f.vars.join(', ')})`;
  const [pure, ...updates] = f.stages;
  if (updates.length === 0) return `${head} = ${ex(pure!.rhs)};`;
  return [`${head} {`, `  ${ex(pure!.rhs)};`, ...updates.map((u) => `  ${printUpdate(u)};`), '}'].join('\n');
}

export function printPipeline(p: Pipeline): string {
  const body = p.funcs.map((f) => printFunc(f).replace(/^/gm, '  ')).join('\n');
  return `pipeline ${p.output}(${p.params.join(', ')}) {\n${body}${body ? '\n' : ''}}\n`;
}
