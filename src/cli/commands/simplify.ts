// `refsem simplify EXPR [--domain values|integers] [--rules FILE …] [--trace]`: rewrites an
// expression with the simplifier's rules (spec/simplify.md), printing each rule applied by name.
import type { Register } from './index.js';
import { UserError, argLoc } from '../../diag.js';
import { parseExprText } from '../../expr/parse.js';
import { printExpr } from '../../expr/print.js';
import { BUILTIN_RULE_SET } from '../../simplify/builtin-rules.js';
import { type Domain, ruleSet } from '../../simplify/rule.js';
import { simplifyWith } from '../../simplify/simplify.js';
import { readRules } from '../../node/rules-file.js';
import { collect } from '../options.js';

export function domainOption(text: string): Domain {
  if (text === 'values' || text === 'integers') return text;
  throw new UserError(`invalid --domain '${text}': expected values or integers`, argLoc('--domain', text), 'values: rules that hold on error values too; integers: also the rules that need every value to be an integer');
}

export const register: Register = (program, io) => {
  program
    .command('simplify')
    .description('simplify an expression with the proved rewrite rules (spec/simplify.md)')
    .argument('<expr>', "the expression, e.g. '(x + 3) - 3'")
    .option('--domain <values|integers>', 'the values the expression may take: every value (default), or integers only', 'values')
    .option('--rules <file>', 'use the rules of this file instead of the built-in ones (repeatable)', collect, [])
    .option('--trace', 'print every rewrite with the rule that made it')
    .action((text: string, o: { domain: string; rules: string[]; trace?: boolean }) => {
      const domain = domainOption(o.domain);
      const rules = o.rules.length > 0 ? ruleSet(readRules(o.rules)) : BUILTIN_RULE_SET;
      const e = parseExprText(text, 'alg', '<expr>');
      const show = (x: Parameters<typeof printExpr>[0]) => printExpr(x, 'alg');
      const out = simplifyWith(e, rules, {
        domain,
        ...(o.trace ? { trace: (s) => io.out(`[${s.group}] ${s.name}: ${show(s.before)} → ${show(s.after)}\n`) } : {}),
      });
      io.out(`${show(out)}\n`);
    });
};
