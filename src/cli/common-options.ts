// Options several commands declare with the same meaning, declared once: the schedule of a program
// (--schedule, --directive), its bounds engine (--engine), its input (--window, --param) and how
// a target program runs (--executor, --seed, --max-steps).
import { EXEC_MAX_STEPS } from '../target-semantics/exec.js';
import { MACHINE_MAX_STEPS } from '../target-semantics/machine.js';
import type { Command } from 'commander';
import { UserError, argLoc } from '../diag.js';
import { EXIT, type IO } from '../node/io.js';
import type { Outcome } from '../target-semantics/outcome.js';
import type { Int } from '../expr/value.js';
import { collect, parseIntOption, parseWindow } from './options.js';

/** `--schedule FILE` and the user directive modules it needs (`--directive`, repeatable). */
export function scheduleOptions(cmd: Command): Command {
  return cmd
    .option('--schedule <file>', 'schedule to apply after lowering')
    .option('--directive <module.mjs>', 'user directive module the schedule uses (repeatable)', collect, []);
}

/** `--engine`: the bounds engine that completes a program with holes (default beta0). */
export function engineOption(cmd: Command, description = 'bounds engine: beta0, beta1 or a plug-in module'): Command {
  return cmd.option('--engine <name|module.mjs>', description, 'beta0');
}

/** The required output `--window` and the pipeline parameters (`--param`, repeatable). */
export function inputOptions(cmd: Command): Command {
  return cmd
    .requiredOption('--window <MIN+LEN,...>', 'output window, one MIN+LEN per dimension')
    .option('--param <NAME=INT>', 'pipeline parameter (repeatable)', collect, []);
}

/** `--executor`, `--seed` and `--max-steps`: how the target program runs. */
export function targetRunOptions(cmd: Command): Command {
  return cmd
    .option('--executor <fast|machine>', 'target executor', 'fast')
    .option('--seed <N>', 'seed for parallel loop orders')
    .option('--max-steps <N>', `step budget of the target run (default ${EXEC_MAX_STEPS} for the fast executor, ${MACHINE_MAX_STEPS} for the machine)`);
}

/** The run options given by `--seed` and `--max-steps` (absent when not given). */
export function runLimits(o: { seed?: string; maxSteps?: string }): { seed?: number; maxSteps?: number } {
  const seed = o.seed === undefined ? undefined : Number(parseIntOption('--seed', o.seed));
  const maxSteps = o.maxSteps === undefined ? undefined : Number(parseIntOption('--max-steps', o.maxSteps, 1n));
  return { ...(seed !== undefined ? { seed } : {}), ...(maxSteps !== undefined ? { maxSteps } : {}) };
}

/**
 * The exit code of a run that printed its outcome (README, "Exit codes"): a program stuck on its own
 * fault (an assertion, a data race, an out-of-bounds access) is a failure found, 1; the step limit
 * is a limit of the command line, so it is reported like `run`'s: bad input, 2, with the option
 * to raise. Returns the code and writes the message of the latter.
 */
export function outcomeExit(out: Outcome, io: IO): number {
  if (out.kind !== 'stuck') return EXIT.ok;
  if (out.stuck.kind !== 'budget-exceeded') return EXIT.checkFailed;
  const max = out.stuck.steps;
  io.err(new UserError(`step limit reached: the program needs more than ${max} steps`, argLoc('--max-steps', String(max)), 'raise --max-steps').render() + '\n');
  return EXIT.badInput;
}

/** What `scheduleOptions` declared, as the program loaders (loadProgram, loadCompleted) take it. */
export function scheduleOf(o: { schedule?: string; directive: string[] }): { schedule?: string; directives: string[] } {
  return { ...(o.schedule !== undefined ? { schedule: o.schedule } : {}), directives: o.directive };
}

/** The value of `--window`, where an empty text is the window of a 0-D output func. */
export function windowOf(text: string): [Int, Int][] {
  return text.trim() === '' ? [] : parseWindow(text);
}
