// `refsem expr EXPR [--param NAME=INT …] [--trace]`: evaluates one closed expression of the shared
// expression language (spec/expr.md), printing each operator application with its rule when asked.
import type { Register } from './index.js';
import { evalExpr, showTraceEvent } from '../../expr/eval.js';
import { parseExprText } from '../../expr/parse.js';
import { printExpr } from '../../expr/print.js';
import { showValue } from '../../expr/value.js';
import { collect, parseParams } from '../options.js';

export const register: Register = (program, io) => {
  program
    .command('expr')
    .description('evaluate an expression of the expression language (spec/expr.md)')
    .argument('<expr>', "the expression, e.g. '7 / -2'")
    .option('--param <name=int>', 'bind a variable (repeatable)', collect, [])
    .option('--trace', 'print every operator application with its rule ID')
    .option('--show', 'print the expression as parsed (sugar removed) before its value')
    .action((text: string, o: { param: string[]; trace?: boolean; show?: boolean }) => {
      const e = parseExprText(text, 'alg', '<expr>');
      const env = parseParams(o.param);
      if (o.show) io.out(`${printExpr(e, 'alg')}\n`);
      const v = evalExpr(e, env, o.trace ? { trace: (ev) => io.out(`${showTraceEvent(ev)}\n`) } : {});
      io.out(`${showValue(v)}\n`);
    });
};
