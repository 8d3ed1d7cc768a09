// Which rules of spec/perceus.md a program makes fire (`refsem fuzz --stats` counts them per
// generated case): the standard semantics' steps, the Perceus derivation, the declarative rules
// that check its output, the heap machine's steps under the configurations that use each rule
// (the scoped baseline, the formal match, Perceus, each optimization), and the optimizations'
// rewrites visible in the annotated programs.
import { LIN_FUN, linRuleOf } from './declarative.js';
import { ELAB_MATCH } from './elaborate.js';
import { OPT_DROPSPEC } from './opt/dropspec.js';
import { OPT_FUSION } from './opt/fusion.js';
import { OPT_REUSE } from './opt/reuse.js';
import { OPT_REUSESPEC } from './opt/reusespec.js';
import { SCOPED_DROP } from './scoped.js';
import type { TraceLine } from './heap-machine.js';
import { type Config, CONFIGS, SINGLE_PASS_CONFIGS, annotate, runAnnotated } from './pipeline.js';
import { type StdTraceLine, evalStandard } from './standard.js';
import { type Expr, type Program, foldExpr } from './syntax.js';
import { type Derivation, perceus } from './syntax-directed.js';

/** The configurations whose runs, between them, can fire every heap rule. */
const RUNS: readonly string[] = ['scoped', 'formal', '+reusespec', 'reuse'];

function bump(out: Map<string, number>, rule: string, n = 1): void {
  out.set(rule, (out.get(rule) ?? 0) + n);
}

/** The rewrites of the passes, read off an annotated program. */
function rewrites(e: Expr, c: Config, out: Map<string, number>): void {
  foldExpr(e, out, (acc, x) => {
    if (x.k === 'con' && x.reuse !== undefined) bump(acc, OPT_REUSE);
    if (x.k === 'con' && x.keep?.some(Boolean)) bump(acc, OPT_REUSESPEC);
    if (x.k === 'dropspec') bump(acc, OPT_DROPSPEC);
    if (x.k === 'dropspec' && x.pushed.length > 0) bump(acc, OPT_FUSION);
    if (x.k === 'match' && x.elab) bump(acc, ELAB_MATCH);
    if (c.scoped && x.k === 'drop') bump(acc, SCOPED_DROP);
    return acc;
  });
}

export function rulesFired(core: Program, maxSteps = 20_000): Map<string, number> {
  const out = new Map<string, number>();
  const std: StdTraceLine[] = [];
  evalStandard(core, maxSteps, std);
  for (const t of std) bump(out, t.rule);
  const { program, derivations } = perceus(core, true);
  const walk = (d: Derivation): void => {
    bump(out, d.rule);
    d.premises.forEach(walk);
  };
  for (const d of derivations.values()) walk(d);
  for (const f of program.funs) {
    bump(out, LIN_FUN);
    foldExpr(f.body, out, (acc, x) => (bump(acc, linRuleOf(x)), acc));
  }
  for (const c of [...CONFIGS, ...SINGLE_PASS_CONFIGS].filter((x) => RUNS.includes(x.name))) {
    const annotated = annotate(core, c);
    for (const f of annotated.funs) rewrites(f.body, c, out);
    const trace: TraceLine[] = [];
    runAnnotated(annotated, c, { maxSteps, trace });
    for (const t of trace) bump(out, t.rule);
  }
  return out;
}
