// Running a bridged program with Halide 14 (spec/halide.md): a long-lived Python server per
// thread forks a child per program under a time limit (server.ts), so that a crash or a hang of the
// JIT is a verdict about that program and never the end of refsem. Halide's Python bindings are Debian's `python3-halide`,
// installed for the system Python (/usr/bin/python3).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { UserError } from '../diag.js';
import { type Value, isError, showValue, toBig } from '../expr/value.js';
import { walkExpr } from '../expr/ast.js';
import { forEachPoint } from '../expr/window.js';
import type { Input, Pipeline } from '../alg-semantics/ast.js';
import { realize } from '../alg-semantics/fast-eval.js';
import { lower } from '../lowering/lower.js';
import { complete } from '../pipeline.js';
import { BUILTIN_ENGINES } from '../bounds/engine.js';
import { execTgt } from '../target-semantics/exec.js';
import { BridgeRefusal, type ScheduleStep, halideProgram } from './emit.js';
import { HalideServer, OUTPUT_CAP_BYTES, type ProgramExit } from './server.js';
import { type KnownBug, STORAGE_CHANGES_OUTCOME, knownCrash, knownValuesBug } from './findings.js';

export const PYTHON = '/usr/bin/python3';

/** What Halide did with a program. */
export type HalideRun =
  | { readonly kind: 'values'; readonly values: readonly string[]; readonly ms?: number; readonly warnings?: string }
  | { readonly kind: 'rejected'; readonly message: string }
  | { readonly kind: 'crash'; readonly message: string };

const MISSING = "Halide's Python bindings are not installed for /usr/bin/python3";
const INSTALL = 'install them with `apt-get install python3-halide` (Debian and Ubuntu), which README.md lists among the set-up steps';

/** Are Halide's bindings importable? (Answered once per process.) */
let available: boolean | undefined;
export function halideAvailable(): boolean {
  if (available === undefined) {
    available = existsSync(PYTHON) && spawnSync(PYTHON, ['-c', 'import halide'], { encoding: 'utf8', timeout: 60_000 }).status === 0;
  }
  return available;
}

export function requireHalide(): void {
  if (!halideAvailable()) throw new UserError(MISSING, undefined, INSTALL);
}

/** The server of this thread (each campaign job is a thread of its own, so each gets one). */
let server: HalideServer | undefined;

/** What this thread's programs have cost in Halide so far, in ms: the wait for the answers, and the
 * CPU time of the programs' processes (the bench splits a check's time with them). */
const spent = { waitedMs: 0, cpuMs: 0 };

/** Runs one bridged program with Halide under a time limit: implements [HALIDE-RUNNER]. */
export async function runHalide(script: string, timeoutMs = 60_000): Promise<HalideRun> {
  requireHalide();
  server ??= new HalideServer(PYTHON);
  const t0 = performance.now();
  const exit = await server.run(script, timeoutMs);
  spent.waitedMs += performance.now() - t0;
  spent.cpuMs += exit.cpuMs;
  return classify(exit, timeoutMs);
}

export const halideSpent = (): { readonly waitedMs: number; readonly cpuMs: number } => ({ ...spent });

/** Halide servers this thread has started (more than one means one died or hung and was replaced). */
export function halideServersStarted(): number {
  return server?.started ?? 0;
}

function classify(r: ProgramExit, timeoutMs: number): HalideRun {
  if (r.lost !== undefined) return { kind: 'crash', message: r.lost };
  if (r.timedOut) return { kind: 'crash', message: `no answer within ${timeoutMs / 1000} s; the program was stopped` };
  if (r.signal) return { kind: 'crash', message: `the program died of ${r.signal}${lastLine(r.stderr) ? ` (${lastLine(r.stderr)})` : ''}` };
  if (r.status !== 0) {
    // Halide reports a schedule or program it refuses as a RuntimeError whose text starts "Error:".
    const err = r.stderr.split('\n');
    const at = err.findIndex((l) => /^(RuntimeError: )?Error:/.test(l));
    // Otherwise the exception line names what broke (Halide's internal errors go on to dump a
    // scope, whose last line "}" says nothing).
    const raised = err.filter((l) => /^\w+(Error|Exception): /.test(l)).pop()?.replace(/^RuntimeError: /, '');
    const message = at >= 0 ? err.slice(at, at + 3).join(' ').replace(/^RuntimeError: /, '').replace(/\s+/g, ' ').trim() : raised ?? lastLine(r.stderr) ?? `exit ${r.status}`;
    return at >= 0 ? { kind: 'rejected', message } : { kind: 'crash', message };
  }
  if (r.stdoutCut) return { kind: 'crash', message: `its output passed ${OUTPUT_CAP_BYTES / 2 ** 20} MB and was cut; narrow the window` };
  const lines = r.stdout.trim().split('\n');
  const last = lines.pop() ?? '';
  try {
    const { values, ms } = JSON.parse(last) as { values: string[]; ms?: number };
    // Halide's compile-time warnings, which may say its values are no evidence ([HALIDE-KNOWN-BUG]);
    // Halide 14's Python bindings print them on standard output, before the values.
    const warnings = [...lines, r.stderr].join('\n').trim();
    return { kind: 'values', values, ...(ms !== undefined ? { ms } : {}), ...(warnings ? { warnings } : {}) };
  } catch {
    return { kind: 'crash', message: `unreadable output: ${last.slice(0, 200)}` };
  }
}

const lastLine = (text: string): string | undefined => text.split('\n').filter(Boolean).slice(-1)[0];

/** The verdicts a campaign tallies, in the order its summary lists them. */
export const HALIDE_VERDICTS = ['equal', 'differs', 'rejected_by_halide', 'rejected_by_refsem', 'crash', 'outside_index_range', 'known_halide_bug'] as const;

/** The verdict of one (algorithm, schedule, input) against Halide. */
export type HalideVerdict =
  | { readonly kind: 'equal'; readonly compared: number }
  | { readonly kind: 'differs'; readonly point: string; readonly expected: string; readonly actual: string }
  | { readonly kind: 'rejected_by_halide'; readonly message: string }
  | { readonly kind: 'rejected_by_refsem'; readonly message: string }
  | { readonly kind: 'crash'; readonly message: string }
  /** a crash or values that a documented Halide 14 bug explains: `outcome` is what Halide did */
  | { readonly kind: 'known_halide_bug'; readonly bug: KnownBug; readonly outcome: string };

/** Compares Halide with the algorithm on one input: implements [HALIDE-VERDICT]. */
export async function validateHalide(p: Pipeline, steps: readonly ScheduleStep[], input: Input, timeoutMs?: number): Promise<HalideVerdict> {
  // A schedule whose own assertions fail on this input (a split factor that is not
  // positive, a bound that does not cover what is needed) is not valid there in refsem; what Halide
  // does with it is no evidence either way.
  const t = steps.length > 0 ? steps[steps.length - 1]!.after : lower(p);
  // (When β0 itself gives up, the program is `assert 0` for want of bounds, not because of the
  // schedule: Halide is compared then.)
  const done = complete(t, BUILTIN_ENGINES.beta0!);
  const own = done.completedBy.failure === undefined ? execTgt(done, input) : undefined;
  if (own?.kind === 'stuck' && own.stuck.kind === 'assert-failed') return { kind: 'rejected_by_refsem', message: "[HALIDE-VERDICT] the schedule's own assertions fail on this input (a split factor that is not positive, a bound that does not cover what is needed)" };
  let script: string;
  try {
    script = halideProgram(p, steps, input);
  } catch (e) {
    if (e instanceof BridgeRefusal) return { kind: 'rejected_by_refsem', message: e.message };
    throw e;
  }
  const run = await runHalide(script, timeoutMs);
  if (run.kind === 'rejected') return { kind: 'rejected_by_halide', message: run.message };
  if (run.kind === 'crash') {
    const bug = knownCrash(p, run.message, steps) ?? ((await storageAlone(p, steps, input, script, timeoutMs)) ? STORAGE_CHANGES_OUTCOME : undefined);
    return bug ? { kind: 'known_halide_bug', bug, outcome: `Halide crashed: ${run.message}${bug === STORAGE_CHANGES_OUTCOME ? AT_COMPUTE_EQUAL : ''}` } : { kind: 'crash', message: run.message };
  }
  // Products of constants beyond 32 bits leave Int(64) inside funcs as well as at the output,
  // where no output value shows it: such algorithms are not cases for Halide.
  const wide = wideConstant(p);
  if (wide !== undefined) return { kind: 'rejected_by_refsem', message: `[HALIDE-TYPES] the algorithm's constant ${wide} is beyond 32 bits, so its values may leave Halide's Int(64) inside funcs` };
  const ref = realize(p, input);
  // Halide's Int(64) wraps (spec/halide.md, Int(64) values) where refsem's integers are exact: a window whose values
  // leave Int(64) is no case for Halide. (An intermediate value that leaves it and comes back is not
  // seen here; such a difference shows as `differs`, and spec/halide.md lists it as known.)
  const big = ref.values.find((v) => !isError(v) && (toBig(v) > (1n << 63n) - 1n || toBig(v) < -(1n << 63n)));
  if (big !== undefined) return { kind: 'rejected_by_refsem', message: `[HALIDE-TYPES] the algorithm's value ${showValue(big)} does not fit Halide's Int(64)` };
  // The values of a run that meets finding 6 come from storage never written: not compared.
  const bug = run.warnings !== undefined ? knownValuesBug(run.warnings) : undefined;
  if (bug) return { kind: 'known_halide_bug', bug, outcome: 'Halide returned values without raising the assertion it warned of; they are not compared' };
  const points: string[] = [];
  forEachPoint(input.window, (c) => points.push(`(${c.map(showValue).join(', ')})`));
  const verdict = compareValues(ref.values, run.values, points);
  if (verdict.kind !== 'differs' || !(await storageAlone(p, steps, input, script, timeoutMs))) return verdict;
  return { kind: 'known_halide_bug', bug: STORAGE_CHANGES_OUTCOME, outcome: `${showHalideVerdict(verdict)}${AT_COMPUTE_EQUAL}` };
}

const AT_COMPUTE_EQUAL = ', and equal to the algorithm at every point once each func is stored where it is computed';

/**
 * Finding 1: where a func is stored never changes an outcome. Does the same program, with every
 * func stored at its compute level (Halide's default), give the algorithm's values? Then the
 * storage placement alone made Halide differ or crash. Not asked when the program has no storage
 * line to leave out; a second run that meets finding 6 is no evidence.
 */
async function storageAlone(p: Pipeline, steps: readonly ScheduleStep[], input: Input, script: string, timeoutMs?: number): Promise<boolean> {
  const atCompute = halideProgram(p, steps, input, { storageAtCompute: true });
  if (atCompute === script) return false;
  const again = await runHalide(atCompute, timeoutMs);
  if (again.kind !== 'values' || (again.warnings !== undefined && knownValuesBug(again.warnings))) return false;
  const points: string[] = [];
  forEachPoint(input.window, (c) => points.push(`(${c.map(showValue).join(', ')})`));
  const v = compareValues(realize(p, input).values, again.values, points);
  return v.kind === 'equal' && v.compared > 0;
}

/** The first point where Halide's values differ from the algorithm's, or how many points were equal. */
function compareValues(want: readonly Value[], got: readonly string[], points: readonly string[]): HalideVerdict {
  let compared = 0;
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    // Where the algorithm has an error value, Halide (which has none) is not compared; this is
    // also where a negative rdom extent leaves the two apart: implements [HALIDE-RDOM-NEGATIVE].
    if (isError(w)) continue;
    compared++;
    if (got[i] !== showValue(w)) return { kind: 'differs', point: points[i]!, expected: showValue(w), actual: got[i] ?? '(missing)' };
  }
  return { kind: 'equal', compared };
}

export function showHalideVerdict(v: HalideVerdict): string {
  switch (v.kind) {
    case 'equal': return v.compared === 0 ? 'equal (vacuous: no point had a value to compare)' : `equal on ${v.compared} point${v.compared === 1 ? '' : 's'}`;
    case 'differs': return `differs at ${v.point}: algorithm ${v.expected}, Halide ${v.actual}`;
    case 'rejected_by_halide': return `rejected by Halide: ${v.message}`;
    case 'rejected_by_refsem': return `not stated in Halide: ${v.message}`;
    case 'crash': return `Halide crashed: ${v.message}`;
    case 'known_halide_bug': return `a known Halide 14 bug, finding ${v.bug.finding} of docs/halide-findings.md (${v.bug.title}); not a comparison: ${v.outcome}`;
  }
}

/** A constant of the algorithm beyond 32 bits, if any. */
function wideConstant(p: Pipeline): bigint | undefined {
  let found: bigint | undefined;
  for (const f of p.funcs) for (const st of f.stages) for (const e of [...st.lhs, st.rhs, st.pred, ...st.rdom.flatMap((r) => [r.min, r.len])]) {
    walkExpr(e, (x) => {
      if (x.k === 'const' && !isError(x.value) && (toBig(x.value) >= 1n << 31n || toBig(x.value) < -(1n << 31n))) found ??= toBig(x.value);
    });
  }
  return found;
}
