// `refsem super-simplify EXPR [--max-size N] [--domain integers|values]`: the smallest expression
// equivalent to EXPR, found by the counterexample-guided search of rule synthesis
// (spec/simplify.md [SIMP-SUPER]) with "smaller" in place of "below in the reduction order".
import type { Register } from './index.js';
import { CheckFailed } from '../main.js';
import { type Expr, walkExpr } from '../../expr/ast.js';
import { parseExprText } from '../../expr/parse.js';
import { printExpr } from '../../expr/print.js';
import { shutdownZ3 } from '../../expr/smt.js';
import { synthesizeRhs } from '../../simplify/synthesize.js';
import { parseIntOption } from '../options.js';
import { domainOption } from './simplify.js';

const nodes = (e: Expr): number => {
  let n = 0;
  walkExpr(e, () => void n++);
  return n;
};

export const register: Register = (program, io) => {
  program
    .command('super-simplify')
    .description('find the smallest expression equivalent to EXPR by counterexample-guided search, proved by Z3 (spec/simplify.md)')
    .argument('<expr>', "the expression, e.g. 'x/2*2 + x%2'")
    .option('--max-size <n>', 'largest result tried, in nodes (operators and leaves)', '5')
    .option('--domain <integers|values>', 'the values its variables may take', 'integers')
    .action(async (text: string, o: { maxSize: string; domain: string }) => {
      const max = Number(parseIntOption('--max-size', o.maxSize, 1n, 9n));
      const domain = domainOption(o.domain);
      const e = parseExprText(text, 'alg', '<expr>');
      const show = (x: Expr) => printExpr(x, 'alg');
      if (e.k !== 'op') {
        io.out(`${show(e)} (already a leaf)\n`);
        return;
      }
      let found;
      try {
        // implements [SIMP-SUPER]
        found = await synthesizeRhs('super', e, domain, { maxOps: Math.floor((max - 1) / 2), accept: (rhs) => nodes(rhs) < nodes(e) && nodes(rhs) <= max });
      } finally {
        await shutdownZ3();
      }
      if (!found.rule) {
        io.out(`no smaller equivalent expression of at most ${max} nodes (${found.proofs} candidates given to Z3, ${found.counterexamples} counterexamples)\n`);
        throw new CheckFailed();
      }
      const r = found.rule.rhs;
      io.out(`${show(r)}\n  ${nodes(r)} node${nodes(r) === 1 ? '' : 's'} instead of ${nodes(e)}; proved equal in the ${domain} domain (${found.proofs} candidates given to Z3, ${found.counterexamples} counterexamples)\n`);
    });
};
