// `refsem rc PROG`: Perceus reference counting for a λ1 program (thesis ch. 4, spec/perceus.md).
// Inserts dup/drop (fig. 4.8) or the scoped baseline, applies the chosen optimizations, runs the
// heap machine with the chosen theorem checks and prints the result (and, on request, the
// annotated program, the derivation, the trace and the statistics).
import { UserError, showLoc, CLI_LOC, argLoc } from '../../diag.js';
import { CHECKS, type CheckName, STEP_CHECKS, parseChecks } from '../../perceus/checks.js';
import { checkDerivable } from '../../perceus/declarative.js';
import type { Stop, TraceLine } from '../../perceus/heap-machine.js';
import { type Config, OPTS, type OptName, annotate, runAnnotated } from '../../perceus/pipeline.js';
import { printProgram } from '../../perceus/print.js';
import { loadProgram, normalize, resolve } from '../../perceus/scope.js';
import { parseProgram } from '../../perceus/parse.js';
import { type StdTraceLine, evalStandard, printValue } from '../../perceus/standard.js';
import { showStats } from '../../perceus/stats.js';
import { eraseProgram } from '../../perceus/syntax.js';
import { perceus, printDerivation } from '../../perceus/syntax-directed.js';
import { EXIT, parseAs } from '../../node/io.js';
import { readSource } from '../../node/source.js';
import { parseIntOption } from '../options.js';
import type { Register } from './index.js';

interface Opts {
  opt?: string;
  scoped?: boolean;
  formal?: boolean;
  annotated?: boolean;
  trace?: boolean;
  stats?: boolean;
  check?: string;
  print?: boolean;
  derivation?: boolean;
  standard?: boolean;
  json?: boolean;
  maxSteps?: string;
  maxCheckWork?: string;
}

// A default that ends within seconds on every path: the heap machine with every check on, and the
// standard semantics, whose terms may grow with each step. The bundled programs need well under
// 1,000,000 steps; longer runs ask for more with --max-steps.
const RC_MAX_STEPS = 10_000_000;

// The per-step checks walk the whole state at every step ([RC-CHECK-BUDGET]): this much work is
// a few seconds on one core: every state of small runs, a prefix of long ones (which then say so).
const RC_MAX_CHECK_WORK = 100_000_000;

function parseOpts(text: string | undefined): Set<OptName> {
  const out = new Set<OptName>();
  for (const w of (text ?? '').split(',').map((x) => x.trim()).filter(Boolean)) {
    if (w === 'all') OPTS.forEach((o) => out.add(o));
    else if ((OPTS as readonly string[]).includes(w)) out.add(w as OptName);
    else throw new UserError(`unknown optimization '${w}'`, argLoc('--opt', w), `use a comma-separated list of ${OPTS.join(', ')}, or all`);
  }
  return out;
}

/** A stop that is the program's fault (stuck, out of steps) is bad input: exit 2 with a location. */
function inputError(s: Exclude<Stop, { kind: 'violation' }>, maxSteps: number): UserError {
  if (s.kind === 'budget') {
    return new UserError(`step budget of ${maxSteps} exhausted (the program may not terminate)`, s.loc, 'raise it with --max-steps N');
  }
  return new UserError(`stuck at step ${s.step}: ${s.reason}`, s.loc);
}

export const register: Register = (program, io, setExit) => {
  program
    .command('rc')
    .description('insert reference counting (Perceus) into a λ1 program and run it on the heap machine')
    .argument('<prog>', 'λ1 source file (- for standard input)')
    .option('--opt <LIST>', `optimizations: comma-separated ${OPTS.join(', ')}, or all`)
    .option('--scoped', 'use the scoped baseline (drop at the end of each scope) instead of Perceus')
    .option('--formal', 'run the formal match (fields duplicated at run time) instead of the elaborated one')
    .option('--annotated', 'the program already contains dup/drop: check it is derivable (fig. 4.5) and run it as written')
    .option('--check <LIST>', `theorem checks: comma-separated ${CHECKS.join(', ')}, or all`)
    .option('--trace', 'print every heap-machine step with its rule')
    .option('--stats', 'print steps, allocations, frees, reuses, dups, drops and peak live cells')
    .option('--print', 'print the annotated program')
    .option('--derivation', 'print the Perceus derivation (fig. 4.8) of every function')
    .option('--standard', 'run the standard semantics (fig. 4.6) instead of the heap machine')
    .option('--json', 'print one JSON object')
    .option('--max-steps <N>', `give up after this many steps (default ${RC_MAX_STEPS})`)
    .option('--max-check-work <N>', `stop the per-step checks (garbage, precision, counts) after walking this many frames and cells (default ${RC_MAX_CHECK_WORK}); a run whose checks stopped is inconclusive`)
    .action((prog: string, o: Opts) => {
      const src = readSource(prog);
      const maxSteps = o.maxSteps === undefined ? RC_MAX_STEPS : Number(parseIntOption('--max-steps', o.maxSteps, 1n));
      const maxCheckWork = o.maxCheckWork === undefined ? RC_MAX_CHECK_WORK : Number(parseIntOption('--max-check-work', o.maxCheckWork, 1n));
      const opts = parseOpts(o.opt);
      const checks: Set<CheckName> = new Set();
      if (o.check !== undefined) {
        const c = parseChecks(o.check);
        if (typeof c === 'string') throw new UserError(`unknown check '${c}'`, argLoc('--check', c), `use a comma-separated list of ${CHECKS.join(', ')}, or all`);
        c.forEach((x) => checks.add(x));
        // `all` means every check the configuration keeps; a check named explicitly always runs.
        if (o.scoped && o.check.split(',').map((w) => w.trim()).includes('all') && !o.check.includes('precision')) checks.delete('precision');
      }
      if (o.scoped && (opts.size > 0 || o.formal)) throw new UserError('--scoped cannot be combined with --opt or --formal', CLI_LOC, 'the optimizations work on Perceus output');
      if (o.formal && opts.size > 0) throw new UserError('--formal cannot be combined with --opt', CLI_LOC, 'the optimizations work on the elaborated form');
      if (o.annotated && (o.scoped || opts.size > 0)) throw new UserError('--annotated runs the program as written', CLI_LOC, 'drop --scoped and --opt');

      // An annotated program keeps its instructions; anything else is erased core for the translation.
      const core = parseAs('lam', src, (text, file) => (o.annotated ? normalize(resolve(parseProgram(text, file))) : loadProgram(text, file)));
      const erased = o.annotated ? eraseProgram(core) : core;

      if (o.standard) {
        const trace: StdTraceLine[] | undefined = o.trace ? [] : undefined;
        const r = evalStandard(erased, maxSteps, trace);
        if (trace) io.out(trace.map((t) => `${String(t.step).padStart(6)} [${t.rule}] ${t.text}\n`).join(''));
        if (r.kind === 'budget') throw inputError({ kind: 'budget', step: r.steps, ...(r.loc ? { loc: r.loc } : {}) }, maxSteps);
        if (r.kind === 'stuck') throw inputError({ kind: 'stuck', reason: r.reason, step: r.steps, ...(r.loc ? { loc: r.loc } : {}) }, maxSteps);
        if (o.json) io.out(JSON.stringify({ semantics: 'standard', result: printValue(r.value, 10_000), steps: r.steps }) + '\n');
        else io.out(`result: ${printValue(r.value)}\n${o.stats ? `stats: steps=${r.steps}\n` : ''}`);
        return;
      }

      if (o.derivation) {
        const { derivations } = perceus(erased, true);
        for (const [name, d] of derivations) io.out(`-- ${name}\n${printDerivation(d)}`);
      }

      const config: Config = { name: o.scoped ? 'scoped' : o.annotated ? 'annotated' : o.formal ? 'formal' : opts.size ? [...opts].join('+') : 'perceus', opts, ...(o.scoped ? { scoped: true } : {}), ...(o.formal || o.annotated ? { formal: true } : {}) };
      if (o.annotated) {
        const nd = checkDerivable(core);
        if (nd) {
          io.out(`not derivable: ${nd.loc ? showLoc(nd.loc) + ': ' : ''}in ${nd.fun}: [${nd.rule}] ${nd.message}\n`);
          setExit(1);
          return;
        }
        if (!o.json) io.out('derivable: every function is derivable from its erasure (fig. 4.5)\n');
      }
      const annotated = o.annotated ? core : annotate(core, config);
      if (o.print) io.out(printProgram(annotated));

      const reference = checks.has('soundness') ? evalStandard(erased, maxSteps) : undefined;
      const trace: TraceLine[] | undefined = o.trace ? [] : undefined;
      const r = runAnnotated(annotated, config, { checks, maxSteps, maxCheckWork, ...(trace ? { trace } : {}), ...(reference ? { reference } : {}) });
      if (trace) io.out(trace.map((t) => `${String(t.step).padStart(6)} [${t.rule}] ${t.text}\n`).join(''));
      const stop = r.result.stop;
      const partial = r.verdict.ok ? r.verdict.partial : undefined;
      if (stop && stop.kind !== 'violation') throw inputError(stop, maxSteps);
      if (o.json) {
        io.out(
          JSON.stringify({
            config: config.name,
            ...(r.value !== undefined ? { result: r.value } : {}),
            stats: r.result.stats,
            checks: [...checks],
            verdict: !r.verdict.ok ? { check: r.verdict.check, message: r.verdict.message } : partial ? 'inconclusive' : 'ok',
            ...(partial ? { checkedStates: partial.states, stoppedAt: partial.stoppedAt } : {}),
          }) + '\n',
        );
      } else {
        if (r.value !== undefined) io.out(`result: ${r.value}\n`);
        if (o.stats) io.out(`stats: ${showStats(r.result.stats)}\n`);
        if (!r.verdict.ok) io.out(`violation: ${r.verdict.check}: ${r.verdict.message}\n`);
        else if (partial) {
          const stepwise = [...checks].filter((k) => STEP_CHECKS.includes(k));
          const whole = [...checks].filter((k) => !STEP_CHECKS.includes(k));
          io.out(`${whole.length ? `checks passed: ${whole.join(', ')}\n` : ''}inconclusive: ${stepwise.join(', ')} checked up to step ${partial.stoppedAt - 1} of ${partial.steps} only: the check budget (--max-check-work ${maxCheckWork}) ran out there\n  hint: raise --max-check-work, or run a smaller instance\n`);
        } else if (checks.size) io.out(`checks passed: ${[...checks].join(', ')}\n`);
      }
      if (!r.verdict.ok) setExit(EXIT.checkFailed);
      else if (partial) setExit(EXIT.inconclusive);
    });
};
