// [HR-REPORT]: the per-file table and the text report, from verdicts given by hand (no solver).
import { describe, expect, it } from 'vitest';
import { readRuleFile } from '../../../src/simplify/halide/parse.js';
import { buildReport, prepare, reportTable, reportText } from '../../../src/simplify/halide/report.js';
import type { HVerdict } from '../../../src/simplify/halide/verify.js';

describe('the report [HR-REPORT]', () => {
  it('counts per file, shows refutations with file:line and counterexample, never counts unmodelled rules as proved, and names the rule an earlier one covers', () => {
    const rules = readRuleFile(['rewrite(x + 0, x)', 'rewrite(x / x, 1)', 'rewrite(x + y, y + x)', 'rewrite(slice(x, c0, c1, c2) + y, y)'].join('\n'), 'r.hrules');
    const prepared = prepare(rules);
    const verdicts = new Map<(typeof prepared)[number], HVerdict>([
      [prepared[0]!, { status: 'proved', by: 'z3', ms: 1 }],
      [prepared[1]!, { status: 'refuted', by: 'z3', ms: 1, counterexample: 'x = 0', lhs: '0', rhs: '1' }],
      [prepared[2]!, { status: 'proved', by: 'z3', ms: 1 }],
    ]);
    const rep = buildReport(prepared, verdicts, [], 2);
    expect(rep.total).toMatchObject({ read: 4, modelled: 3, proved: 2, refuted: 1, unknown: 0, order_violations: 1 });
    expect(rep.unmodelled).toEqual({ slice: 1 });
    expect(rep.rules_per_second).toBe(1.5);
    expect(reportTable(rep).split('\n').at(-1)).toBe('| total | 4 | 3 | 2 | 0 | 1 | 0 | 1 | 0 | 1 |');
    const text = reportText(rep);
    expect(text).toContain('refuted r.hrules:2 (Div): rewrite(x / x, 1)\n  counterexample: x = 0; left 0, right 1\n');
    expect(text).toContain('not modelled (rules per construct): slice 1\n');
    expect(text).toContain('3 of 4 rules modelled\n');
  });
});
