// Replaying a reproducer: rebuild its environment and case from the file alone and check again.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { CLI_LOC, UserError } from '../diag.js';
import { evaluate, evaluateAsync, generated } from './check.js';
import { watched } from '../node/watchdog.js';
import type { Scheduled } from './gen/schedule.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { DEFAULT_CONFIG, type FuzzEnv } from './env.js';
import { makeEnv } from './make-env.js';
import { sizedEnvs } from './size.js';
import { propertyNamed } from './properties/index.js';
import type { AnyProperty, CheckResult } from './property.js';
import { type Reproducer, finishesWithin, readReproducer, sha256 } from './reproducer.js';
import { isModulePath } from '../node/plugins.js';
import { REFSEM_BIN } from '../node/package.js';

export interface ReplayResult {
  readonly reproducer: Reproducer;
  readonly result: CheckResult;
  /** the check fails again with the recorded verdict */
  readonly reproduced: boolean;
  /** plug-in modules that were missing (their embedded copy ran) or changed since */
  readonly warnings: readonly string[];
}

/**
 * The module path to load for each recorded plug-in: the file itself when present (with a warning
 * when it is not the file the reproducer was written with), else the copy embedded in the
 * reproducer, written to a scratch directory under its own name.
 */
function restoreModule(r: Reproducer, path: string, warnings: string[]): string {
  const copy = r.modules?.find((m) => m.path === path);
  if (existsSync(path)) {
    if (copy && sha256(readFileSync(path, 'utf8')) !== copy.sha256) {
      warnings.push(`${path} has changed since the reproducer was written (sha256 ${copy.sha256.slice(0, 12)}…); replaying the file as it is now`);
    }
    return path;
  }
  if (!copy) return path;
  const file = join(mkdtempSync(join(tmpdir(), 'refsem-replay-')), basename(path));
  writeFileSync(file, copy.source);
  warnings.push(`${path} is missing; replaying the copy embedded in the reproducer`);
  return file;
}

/** The environment a reproducer names, its plug-in modules restored where their files are gone. */
function replayEnv(r: Reproducer, warnings: string[]): Promise<FuzzEnv> {
  // The case is text: the generation options of the campaign play no part in checking it.
  return makeEnv({
    ...DEFAULT_CONFIG,
    engine: isModulePath(r.engine) ? restoreModule(r, r.engine, warnings) : r.engine,
    directives: r.directives.map((d) => restoreModule(r, d, warnings)),
    ...(r.backend !== undefined ? { backend: r.backend } : {}),
    ...(r.max_steps !== undefined ? { maxSteps: r.max_steps } : {}),
    ...(r.focus !== undefined ? { focus: r.focus } : {}),
    ...(r.fault !== undefined ? { fault: r.fault } : {}),
  });
}

/**
 * A replayed check runs under the default per-check budget of campaigns (`--budget 10s`), so that
 * the reproducer of a check that timed out replays to `timeout` instead of hanging replay.
 */
export const REPLAY_BUDGET_MS = 10_000;

function evaluateWithin(prop: AnyProperty, c: unknown, env: FuzzEnv): Promise<CheckResult> {
  // Asynchronous checks run compilers and Python processes under limits of their own.
  if (prop.checkAsync) return evaluateAsync(prop, c, env);
  try {
    return Promise.resolve(watched(() => evaluate(prop, c, env), 'the check', REPLAY_BUDGET_MS)());
  } catch (e) {
    return Promise.resolve({ status: 'fail', verdict: 'timeout', expected: finishesWithin(REPLAY_BUDGET_MS), actual: String((e as Error)?.message ?? e) });
  }
}

export async function replay(path: string): Promise<ReplayResult> {
  const r = readReproducer(path);
  const at = { file: path, line: 1, col: 1 };
  // Everything below is rebuilt from the file: what it names (a property, a directive, a fault)
  // and cannot be found is reported at the file, not at the command line.
  const fromFile = (e: unknown): unknown =>
    e instanceof UserError && (e.loc === undefined || e.loc.file === CLI_LOC.file) ? new UserError(e.message, at, e.hint) : e;
  try {
    const prop = propertyNamed(r.property);
    const warnings: string[] = [];
    const env = await replayEnv(r, warnings);
    let c: unknown;
    try {
      // A check that ended its worker (a timeout, an exhausted heap) left only its blueprint: the
      // case is generated again from the campaign's seed, and made concrete under the watchdog.
      // It is generated at the size level it ran at (size.ts): the level changes what a seed draws.
      const sized = r.case.extra?.size_level !== undefined ? sizedEnvs(env)(Number(r.case.extra.size_level)) : env;
      c = r.case.program === undefined && r.case.extra?.blueprint !== undefined
        ? watched(() => prop.concretize(generated(prop, sized, r.check_seed), sized), 'making the case concrete', REPLAY_BUDGET_MS)()
        : prop.decode(r.case, env);
    } catch (e) {
      if (e instanceof Error && /did not return within/.test(e.message)) {
        return { reproducer: r, result: { status: 'fail', verdict: 'timeout', expected: finishesWithin(REPLAY_BUDGET_MS), actual: e.message }, reproduced: r.verdict === 'timeout', warnings };
      }
      if (e instanceof UserError) throw e;
      // The case text of a file written by a campaign always decodes; this one was edited.
      throw new UserError(`the recorded case cannot be rebuilt: ${(e as Error)?.message ?? String(e)}`, at, 'reproducers are written by refsem fuzz and are not edited by hand; run the campaign again to get a fresh one');
    }
    const result = await evaluateWithin(prop, c, env);
    return { reproducer: r, result, reproduced: result.status === 'fail' && result.verdict === r.verdict, warnings };
  } catch (e) {
    throw fromFile(e);
  }
}

/** One step of `replay --trace`: the program after a directive, and the property's verdict on it. */
export interface TraceStep {
  /** the directive that produced the program (undefined: T0, the lowered program) */
  readonly directive?: string;
  readonly program: TgtProgram;
  readonly verdict: string;
}

/**
 * The property checked on every prefix T0 … Tn of a reproducer's schedule, so the first directive
 * after which the verdict changes shows. Only cases with a schedule have prefixes.
 */
export async function traceReplay(path: string): Promise<{ reproducer: Reproducer; steps: TraceStep[] }> {
  const r = readReproducer(path);
  const prop = propertyNamed(r.property);
  const env = await replayEnv(r, []);
  const c = prop.decode(r.case, env) as Partial<Scheduled>;
  if (!c.steps || !c.names) throw new UserError(`a ${r.property} case has no schedule to trace`, { file: path, line: 1, col: 1 }, 'replay --trace follows the programs T0 … Tn of a scheduling property (confluence, memory-safety, bounds-quality, race-free, lemmas)');
  const steps: TraceStep[] = [];
  for (let i = 0; i < c.steps.length; i++) {
    const prefix = { ...c, steps: c.steps.slice(0, i + 1), names: c.names.slice(0, i) };
    const res = await evaluateAsync(prop, prefix, env);
    steps.push({ ...(i > 0 ? { directive: c.names[i - 1]! } : {}), program: c.steps[i]!, verdict: res.status === 'fail' ? res.verdict : res.status === 'pass' && res.vacuous ? `pass (${res.vacuous})` : res.status });
  }
  return { reproducer: r, steps };
}

/**
 * `replay --extract DIR`: the case as ordinary files — the program, the schedule, the plug-in
 * modules and a `run.sh` that runs it with `refsem exec … --compare` — so it can be read, edited
 * and run without the reproducer. Returns the files written.
 */
export function extractReproducer(path: string, dir: string): string[] {
  const r = readReproducer(path);
  mkdirSync(join(dir, 'modules'), { recursive: true });
  const written: string[] = [];
  const put = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    written.push(join(dir, name));
  };
  const args: string[] = [];
  if (r.case.program !== undefined) put('case.alg', r.case.program);
  if (r.case.schedule) {
    put('case.sched', r.case.schedule.endsWith('\n') ? r.case.schedule : `${r.case.schedule}\n`);
    args.push('--schedule case.sched');
  }
  if (r.case.input) {
    args.push(`--window=${r.case.input.window.map(([m, l]) => `${m}+${l}`).join(',')}`);
    for (const [k, v] of Object.entries(r.case.input.params)) args.push(`--param ${k}=${v}`);
  }
  // a seed's case runs with the larger budget it was checked with (gen/seeded.ts, SEED_MAX_STEPS)
  if (r.case.extra?.max_steps !== undefined) args.push(`--max-steps ${r.case.extra.max_steps}`);
  const local = (p: string) => `modules/${basename(p)}`;
  for (const m of r.modules ?? []) put(local(m.path), m.source);
  for (const d of r.directives) args.push(`--directive ${local(d)}`);
  // bounds-quality judges β1 where the campaign's engine is β0 (soundness.ts, `judged`).
  const engine = r.property === 'bounds-quality' && r.engine === 'beta0' ? 'beta1' : r.engine;
  args.push(`--engine ${isModulePath(engine) ? local(engine) : engine}`);
  // A planted zoo fault lives inside refsem and cannot be named to exec: such cases replay.
  const run = r.case.program !== undefined && r.fault === undefined
    ? `$REFSEM exec case.alg ${args.join(' ')} --compare`
    : '$REFSEM replay reproducer.json';
  put('reproducer.json', readFileSync(path, 'utf8'));
  // A Halide case runs alone too: `/usr/bin/python3 case.py` prints Halide's values and the algorithm's.
  if (r.case.extra?.python !== undefined) put('case.py', r.case.extra.python);
  put('run.sh', [
    '#!/bin/sh',
    `# ${r.property}: ${r.verdict}, found by refsem ${r.refsem_version ?? '(version unknown)'} (seed ${r.seed}, check ${r.check}).`,
    `# expected: ${r.expected.split('\n')[0]}`,
    `# actual:   ${r.actual.split('\n')[0]}`,
    'cd "$(dirname "$0")"',
    `REFSEM="\${REFSEM:-node ${REFSEM_BIN}}"`,
    run,
    '',
  ].join('\n'));
  chmodSync(join(dir, 'run.sh'), 0o755);
  return written;
}
