// `refsem synthesize-rules [--programs N] [--max-lhs N] [--max-guarded N] [--out FILE] [--json]`
// (npm run synthesize-rules): collects the expressions β1 and the C backend leave after
// simplification on a fixed sample of generated programs, proposes left-hand sides from them,
// synthesizes right-hand sides — with a predicate when none holds for every constant — with Z3
// (spec/simplify.md [SIMP-SYNTH]), places each among the rules of its root, and adopts a
// synthesized rule only when it is proved and makes at least one collected expression smaller.
import { writeOutput } from '../../node/source.js';
import fc from 'fast-check';
import type { Register } from './index.js';
import { beta1 } from '../../bounds/beta1.js';
import { extractQuery } from '../../bounds/query.js';
import { simplifyIndices, subscripts } from '../../codegen/indices.js';
import { type Expr, walkExpr } from '../../expr/ast.js';
import { printExpr } from '../../expr/print.js';
import { shutdownZ3 } from '../../expr/smt.js';
import { arbTgtProgram } from '../../fuzz/arbitraries/tgt.js';
import { sampleScheduled } from '../../fuzz/gen/scheduled-sample.js';
import { BUILTIN_RULE_SET, BUILTIN_RULES } from '../../simplify/builtin-rules.js';
import { type Domain, type Rule, ruleSet, ruleSource, wildcards } from '../../simplify/rule.js';
import { simplifyWith } from '../../simplify/simplify.js';
import { placeRule, proposeLhs, synthesizeGuarded, synthesizeRhs } from '../../simplify/synthesize.js';
import { parseIntOption } from '../options.js';

const show = (e: Expr) => printExpr(e, 'alg');
const size = (e: Expr) => {
  let n = 0;
  walkExpr(e, () => void n++);
  return n;
};

/** The expressions left after simplification: β1's completions and the C backend's subscripts. */
function collect(programs: number): { beta1: Expr[]; indices: Expr[] } {
  const beta1Ends = sampleScheduled(programs).flatMap(({ t }) => {
    const r = beta1(t, extractQuery(t));
    return r.ok ? [...r.completion.values()] : [];
  });
  const indices = fc.sample(arbTgtProgram(), { seed: 3, numRuns: programs }).flatMap((t) => subscripts(simplifyIndices(t)));
  return { beta1: beta1Ends, indices };
}

export const register: Register = (program, io) => {
  program
    .command('synthesize-rules')
    .description('synthesize rewrite rules from expressions the simplifier leaves alone, proved with Z3 (spec/simplify.md)')
    .option('--programs <n>', 'generated programs to collect expressions from (each for β1 and for the C backend)', '150')
    .option('--max-lhs <n>', 'left-hand sides to try, the most frequent first', '40')
    .option('--max-guarded <n>', 'left-hand sides with constants, none of whose right-hand sides holds for every constant, to try with a predicate', '10')
    .option('--out <file>', 'write the adopted rules here, in the rule format')
    .option('--json', 'print the report as one JSON object')
    .action(async (o: { programs: string; maxLhs: string; maxGuarded: string; out?: string; json?: boolean }) => {
      const programs = Number(parseIntOption('--programs', o.programs, 1n, 10_000n));
      const maxLhs = Number(parseIntOption('--max-lhs', o.maxLhs, 1n, 10_000n));
      let guardedLeft = Number(parseIntOption('--max-guarded', o.maxGuarded, 0n, 10_000n));
      const { beta1: ends, indices } = collect(programs);
      const unique = new Map<string, Expr>();
      for (const e of [...ends, ...indices]) unique.set(show(e), e);
      const exprs = [...unique.values()];
      // Left-hand sides, by how many collected expressions propose them; those the rules already
      // rewrite are not left alone and are skipped.
      const count = new Map<string, { lhs: Extract<Expr, { k: 'op' }>; n: number }>();
      for (const e of exprs) {
        for (const lhs of proposeLhs(e)) {
          const k = show(lhs);
          const c = count.get(k);
          if (c) c.n++;
          else count.set(k, { lhs, n: 1 });
        }
      }
      const open = [...count.values()].filter((c) => show(simplifyWith(c.lhs, BUILTIN_RULE_SET, { domain: 'integers' })) === show(c.lhs));
      const tried = open.sort((a, b) => b.n - a.n).slice(0, maxLhs);
      const adopted: { rule: Rule; improves: number; nodes_saved: number; placed: string }[] = [];
      const synthesized: Rule[] = [];
      let proofs = 0;
      let counterexamples = 0;
      // The rule set adopted rules are placed in, in matching order.
      let current: Rule[] = [...BUILTIN_RULES];
      const adopt = (rule: Rule): void => {
        synthesized.push(rule);
        const placed = placeRule(current, rule);
        if (!placed) return;
        // Adopted only when it helps: some collected expression gets smaller with it than with
        // the rules adopted so far.
        const base = ruleSet(current);
        const withRule = ruleSet(placed.rules);
        let improves = 0;
        let saved = 0;
        for (const e of exprs) {
          const d = size(simplifyWith(e, base, { domain: 'integers' })) - size(simplifyWith(e, withRule, { domain: 'integers' }));
          if (d > 0) {
            improves++;
            saved += d;
          }
        }
        if (improves === 0) return;
        current = placed.rules;
        adopted.push({ rule, improves, nodes_saved: saved, placed: placed.before ? `before ${placed.before} (${placed.group})` : `last in ${placed.group}` });
      };
      try {
        for (const [i, { lhs }] of tried.entries()) {
          let found = false;
          for (const domain of ['values', 'integers'] as Domain[]) {
            const r = await synthesizeRhs(`synth-${i + 1}`, lhs, domain, { timeoutMs: 1000 });
            proofs += r.proofs;
            counterexamples += r.counterexamples;
            if (!r.rule) continue;
            adopt(r.rule);
            found = true;
            break;
          }
          // No right-hand side for every constant: one with a predicate ([SIMP-SYNTH] step 3b).
          if (found || guardedLeft === 0 || wildcards(lhs).consts.size === 0) continue;
          guardedLeft--;
          const g = await synthesizeGuarded(`synth-${i + 1}`, lhs, 'integers', { timeoutMs: 1000, tries: 4 });
          proofs += g.proofs;
          counterexamples += g.counterexamples;
          if (g.rule) adopt(g.rule);
        }
      } finally {
        await shutdownZ3();
      }
      if (o.out) writeOutput(o.out, adopted.map((a) => `${ruleSource(a.rule)}  // placed ${a.placed}\n`).join(''), '--out');
      const report = {
        expressions: { beta1_ends: ends.length, c_subscripts: indices.length, distinct: exprs.length },
        lhs_proposed: count.size,
        lhs_left_alone: open.length,
        lhs_tried: tried.length,
        candidates_proved_or_refuted: proofs,
        counterexamples,
        synthesized: synthesized.map(ruleSource),
        adopted: adopted.map((a) => ({ rule: ruleSource(a.rule), placed: a.placed, improves_expressions: a.improves, nodes_saved: a.nodes_saved })),
      };
      if (o.json) io.out(`${JSON.stringify(report)}\n`);
      else {
        io.out(`${report.expressions.distinct} distinct expressions (${ends.length} β1 ends, ${indices.length} C subscripts); ${open.length} of ${count.size} proposed left-hand sides left alone, ${tried.length} tried\n`);
        io.out(`${synthesized.length} rules synthesized and proved (${proofs} solver calls, ${counterexamples} counterexamples):\n`);
        for (const r of report.synthesized) io.out(`  ${r}\n`);
        io.out(`${adopted.length} adopted:\n`);
        for (const a of report.adopted) io.out(`  ${a.rule}  (placed ${a.placed}; ${a.improves_expressions} expressions smaller, ${a.nodes_saved} nodes saved)\n`);
      }
    });
};
