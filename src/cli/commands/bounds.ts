// `refsem bounds PROG [--schedule S] [--query [--rules]] [--engine E] [--program]
//   [--window … --param …] [--verify [--range NAME=LO..HI …] [--timeout MS]]`:
// the bounds oracle query 𝓑(T) (fig. 2.10a, def. 2.15), an engine's answer to it (§2.7.2), the
// answer checked on one input, or proved for all parameters in ranges with Z3. Exit 1 when a
// check finds a counterexample.
import { UserError, argLoc } from '../../diag.js';
import type { Input } from '../../alg-semantics/ast.js';
import { checkInput } from '../../alg-semantics/input.js';
import { holeKey } from '../../expr/ast.js';
import { printExpr } from '../../expr/print.js';
import { type Int, intFromString } from '../../expr/value.js';
import { type EngineResult, runEngine } from '../../bounds/engine.js';
import { complete, query } from '../../pipeline.js';
import { resolveEngine } from '../../node/plugins.js';
import { readScheduled } from '../../node/program.js';
import { type Query, extractQuery, printQuery } from '../../bounds/query.js';
import { infer } from '../../bounds/beta0.js';
import { beta1 } from '../../bounds/beta1.js';
import type { TgtProgram } from '../../target-semantics/ast.js';
import { CONCRETE_RULE, checkConcrete, showInstances, showViolation } from '../../bounds/concrete-check.js';
import { Z3_RULE, defaultRange, verifyCompletion } from '../../bounds/verify-z3.js';
import { withAssertions } from '../../bounds/completion.js';
import { checkQuality, showQuality } from '../../bounds/quality.js';
import { holesOf } from '../../target-semantics/holes.js';
import { printTgt } from '../../target-semantics/print.js';
import { EXIT } from '../../node/io.js';
import { engineOption, scheduleOf, scheduleOptions, windowOf } from '../common-options.js';
import { collect, parseIntOption, parseParams } from '../options.js';
import type { Register } from './index.js';

interface Opts {
  schedule?: string;
  directive: string[];
  query?: boolean;
  rules?: boolean;
  engine: string;
  program?: boolean;
  trace?: boolean;
  window?: string;
  param: string[];
  verify?: boolean;
  range: string[];
  timeout?: string;
  strict?: boolean;
  quality?: boolean;
}

/** Built-in engines that can report their steps. */
const TRACEABLE: Readonly<Record<string, (t: TgtProgram, q: Query, trace: (rule: string, text: string) => void) => EngineResult>> = {
  beta0: (t, q, trace) => infer(t, q, { trace }),
  beta1: (t, q, trace) => beta1(t, q, trace),
};


/** `NAME=LO..HI`, repeatable. */
export function parseRanges(items: readonly string[]): Map<string, readonly [Int, Int]> {
  const out = new Map<string, readonly [Int, Int]>();
  for (const it of items) {
    const m = /^([A-Za-z_][A-Za-z0-9_.']*)=(-?\d+)\.\.(-?\d+)$/.exec(it.trim());
    if (!m) throw new UserError(`invalid --range '${it}': expected NAME=LO..HI, e.g. x.len=0..100`, argLoc('--range', it));
    const lo = intFromString(m[2]!);
    const hi = intFromString(m[3]!);
    if (lo > hi) throw new UserError(`invalid --range '${it}': the range is empty (${lo} > ${hi})`, argLoc('--range', it), 'give LO ≤ HI');
    if (out.has(m[1]!)) throw new UserError(`invalid --range '${it}': '${m[1]}' is given twice`, argLoc('--range', it));
    out.set(m[1]!, [lo, hi]);
  }
  return out;
}

export const register: Register = (program, io, setExit) => {
  const cmd = program
    .command('bounds')
    .description('bounds inference: the oracle query (fig. 2.10a), an engine\'s completion, concrete and Z3 checks')
    .argument('<prog>', 'algorithm source file, or a Tgt? program (.tgt)');
  scheduleOptions(cmd)
    .option('--query', 'print the query 𝓑(T) instead of a completion')
    .option('--rules', 'with --query: show the rule that produced each part');
  engineOption(cmd)
    .option('--trace', 'print each step of the engine with its rule (built-in engines)')
    .option('--program', 'print the completed program instead of the hole values')
    .option('--window <MIN+LEN,...>', 'check the completion on this input and show the concrete intervals')
    .option('--param <NAME=INT>', 'pipeline parameter for --window (repeatable)', collect, [])
    .option('--verify', 'prove the completion with Z3 for all parameters in their ranges')
    .option('--range <NAME=LO..HI>', 'range of a parameter for --verify (repeatable; default lengths 0..64, others -64..64)', collect, [])
    .option('--quality', 'with --window: check the bounds quality constraint (def. 2.5) for the engine on that input')
    .option('--timeout <MS>', 'solver timeout for --verify, in milliseconds', '10000')
    .option('--strict', 'with --verify or --window: exit 4 (inconclusive) when nothing was checked (the engine gave up, or Z3 answered unknown)')
    .action(async (prog: string, o: Opts) => {
      const { t, alg } = await readScheduled({ prog, ...scheduleOf(o) });
      if (o.query) {
        io.out(printQuery(query(t), { rules: o.rules ?? false }));
        return;
      }
      const engine = await resolveEngine(o.engine);
      const ranges = parseRanges(o.range);
      const timeoutMs = Number(parseIntOption('--timeout', o.timeout ?? '10000', 1n));
      const r = o.trace && engine.name in TRACEABLE
        ? TRACEABLE[engine.name]!(t, extractQuery(t), (rule, text) => io.out(`[${rule}] ${text}\n`))
        : runEngine(t, engine);
      const input: Input | undefined = o.window === undefined ? undefined : { window: windowOf(o.window), params: parseParams(o.param) };
      if (input && alg) checkInput(alg, input);
      if (o.quality) {
        if (!alg) throw new UserError('--quality needs the algorithm', undefined, 'give an algorithm file rather than a .tgt program');
        if (!input) throw new UserError('--quality needs an input', undefined, 'pass --window (and --param)');
      }
      const quality = () => {
        const qr = checkQuality(alg!, t, input!, engine);
        io.out(showQuality(qr, engine.name) + '\n');
        if (qr.applies && !qr.holds) setExit(EXIT.checkFailed);
      };
      if (!r.ok) {
        io.out(`engine ${engine.name} fails: ${r.explanation}\n`);
        if (engine.name === 'beta0') io.err('note: β0 ignores conditions and gives up on holes it cannot bound; try --engine beta1\n');
        if (o.quality) quality();
        // Nothing was verified or checked: with --verify or --window that is a check not done.
        if (o.strict && (o.verify || input !== undefined)) setExit(EXIT.inconclusive);
        return;
      }
      if (o.program) io.out(printTgt(complete(t, engine)));
      else {
        const order = holesOf(t).map(holeKey);
        for (const k of order) io.out(`${k} = ${printExpr(r.completion.get(k)!, 'tgt')}\n`);
        for (const a of r.assertions ?? []) io.out(`assert ${printExpr(a.cond, 'tgt')}   (in label ${a.func}, for ${a.why})\n`);
      }
      if (input) {
        const tt = withAssertions(t, r.assertions ?? []);
        const rep = checkConcrete(tt, extractQuery(tt), r.completion, input);
        io.out(`on this input:\n${showInstances(rep)}\nallocated points: ${rep.allocatedPoints}\n`);
        const tag = `[${CONCRETE_RULE}]`;
        if (rep.holds === false) {
          io.out(`${tag} the query fails: ${showViolation(rep.violation!)}\n`);
          setExit(EXIT.checkFailed);
        } else io.out(rep.holds ? `${tag} the query holds\n` : `${tag} the query is undecided (${rep.budgetExceeded ? 'step budget exceeded' : rep.errorIndex ? `an index is the algorithm's error: ${rep.errorIndex}` : `${rep.undecided} constraints depend on func values`})\n`);
        if (o.quality) quality();
      }
      if (o.verify) {
        const v = await verifyCompletion(t, r.completion, ranges, { timeoutMs, assertions: r.assertions ?? [] });
        if (v.status === 'proved') {
          const shown = extractQuery(t).params.map((p) => `${p} ∈ [${(ranges.get(p) ?? defaultRange(p, t)).join(', ')}]`).join(', ');
          io.out(`[${Z3_RULE}] proved: the query holds for all ${shown || 'inputs'}\n`);
        } else if (v.status === 'refuted') {
          const w = v.input.window.map(([m, l]) => `${m}+${l}`).join(',');
          const ps = [...v.input.params].map(([k, x]) => ` --param ${k}=${x}`).join('');
          io.out(`[${Z3_RULE}] refuted: the query fails on --window ${w || "''"}${ps}\n`);
          setExit(EXIT.checkFailed);
        } else {
          // Nothing was proved or refuted: like a vacuous check, exit 0 unless --strict asks otherwise.
          io.out(`[${Z3_RULE}] unknown: ${v.reason}\n`);
          if (o.strict) setExit(EXIT.inconclusive);
        }
      }
    });
};
