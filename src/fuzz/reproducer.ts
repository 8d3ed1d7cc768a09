// Reproducers: one self-contained JSON file per de-duplicated failure. The case is stored as text
// in each language's concrete syntax (program via printPipeline, schedule via printSchedule, …)
// together with the environment (engine, directive modules, zoo fault), the seed and check index
// it came from, and the expected/actual/verdict triple, so `refsem replay FILE` needs nothing else.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { cannotRead } from '../node/source.js';
import { isModulePath } from '../node/plugins.js';
import { parseJson, UserError } from '../diag.js';
import type { Found } from './check.js';
import type { EnvConfig } from './env.js';
import type { CaseText } from './property.js';
import { REFSEM_VERSION } from '../node/package.js';

export const REPRO_FORMAT = 'refsem-reproducer/1';

export interface Reproducer {
  readonly format: typeof REPRO_FORMAT;
  readonly property: string;
  readonly verdict: string;
  readonly seed: number;
  readonly check: number;
  readonly check_seed: number;
  readonly engine: string;
  readonly directives: readonly string[];
  readonly focus?: string;
  readonly fault?: string;
  readonly backend?: 'c' | 'simd';
  /** the step budget of each run, when not the campaigns' default (a replayed refutation's, [OBL-REPLAY]) */
  readonly max_steps?: number;
  readonly culprit?: string;
  readonly key: string;
  readonly case: CaseText;
  readonly expected: string;
  readonly actual: string;
  readonly shrinks: number;
  /** the seed of the corpus the case came from (gen/seeded.ts), as written or mutated */
  readonly from_seed?: string;
  /** present when shrinking stopped at its time limit: another machine may shrink to another case */
  readonly shrink_stopped_by_time?: true;
  /** the refsem that wrote the reproducer (absent in reproducers of older versions) */
  readonly refsem_version?: string;
  /** the plug-in modules (directives, an engine module) as they were: replay runs them when the files are gone */
  readonly modules?: readonly EmbeddedModule[];
}

/** A copy of a plug-in module, so that a reproducer travels without the files it names. */
export interface EmbeddedModule {
  readonly path: string;
  readonly sha256: string;
  readonly source: string;
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The plug-in modules of a configuration, absolute, with their sources (unreadable ones are left out). */
export function embedModules(cfg: EnvConfig): EmbeddedModule[] {
  const paths = [...cfg.directives, ...(isModulePath(cfg.engine) ? [cfg.engine] : [])].map((p) => resolve(p));
  return paths.flatMap((path) => {
    if (!existsSync(path)) return [];
    const source = readFileSync(path, 'utf8');
    return [{ path, sha256: sha256(source), source }];
  });
}

export function reproducerOf(f: Found, seed: number, cfg: EnvConfig): Reproducer {
  return {
    format: REPRO_FORMAT,
    refsem_version: REFSEM_VERSION,
    property: f.property,
    verdict: f.failure.verdict,
    seed,
    check: f.index,
    check_seed: f.checkSeed,
    engine: isModulePath(cfg.engine) ? resolve(cfg.engine) : cfg.engine,
    directives: cfg.directives.map((d) => resolve(d)),
    modules: embedModules(cfg),
    ...(cfg.focus !== undefined ? { focus: cfg.focus } : {}),
    ...(cfg.fault !== undefined ? { fault: cfg.fault } : {}),
    ...(cfg.backend !== undefined ? { backend: cfg.backend } : {}),
    ...(f.culprit !== undefined ? { culprit: f.culprit } : {}),
    key: f.key,
    ...(f.origin ? { from_seed: `${f.origin.seed} (${f.origin.exact ? 'as written' : 'mutated'})` } : {}),
    case: f.text,
    expected: f.failure.expected,
    actual: f.failure.actual,
    shrinks: f.shrinks,
    ...(f.shrinkTimedOut ? { shrink_stopped_by_time: true as const } : {}),
  };
}

/**
 * File name from the de-duplication key and the plug-ins it ran with (their sources and the
 * directive under focus): the same failure always lands in the same file, and the failures of one
 * kind of two plug-ins (a timeout each) never overwrite each other in one folder.
 */
export function reproducerName(r: Pick<Reproducer, 'property' | 'key' | 'modules' | 'focus'>): string {
  const plugins = [...(r.modules ?? []).map((m) => m.sha256).sort(), ...(r.focus !== undefined ? [`focus ${r.focus}`] : [])];
  const id = [r.key, ...plugins].join('\0');
  return `${r.property}-${createHash('sha256').update(id).digest('hex').slice(0, 10)}.json`;
}

/** Writes atomically (temporary file, then rename), so a reader never sees half a reproducer. */
export function writeReproducer(dir: string, r: Reproducer): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, reproducerName(r));
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(r, null, 2)}\n`);
  renameSync(tmp, path);
  return path;
}

const REPLAY_HINT = "pass a reproducer (.json) that refsem fuzz wrote into its --out directory";

/** Reads and checks a reproducer; whatever is wrong with the file is reported at it (exit 2). */
export function readReproducer(path: string): Reproducer {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw cannotRead(path, e, 'reproducer ', REPLAY_HINT);
  }
  const r = parseJson(text, path, `${REPLAY_HINT}; a reproducer is one JSON object`) as Partial<Record<keyof Reproducer, unknown>> | null;
  const at = { file: path, line: 1, col: 1 };
  const lacks = (what: string): never => {
    throw new UserError(`not a valid reproducer: ${what}`, at, `reproducers are written by refsem fuzz and are not edited by hand; ${REPLAY_HINT}`);
  };
  if (typeof r !== 'object' || r === null || Array.isArray(r)) lacks('expected a JSON object');
  if (r!.format !== REPRO_FORMAT) {
    throw new UserError(`not a refsem reproducer (format ${JSON.stringify(r!.format) ?? 'missing'})`, at, `reproducers have "format": "${REPRO_FORMAT}"; ${REPLAY_HINT}`);
  }
  for (const k of ['property', 'verdict', 'engine'] as const) if (typeof r![k] !== 'string') lacks(`"${k}" must be a string`);
  for (const k of ['focus', 'fault', 'refsem_version'] as const) if (r![k] !== undefined && typeof r![k] !== 'string') lacks(`"${k}" must be a string`);
  if (r!.backend !== undefined && r!.backend !== 'c' && r!.backend !== 'simd') lacks('"backend" must be "c" or "simd"');
  if (r!.max_steps !== undefined && !(Number.isSafeInteger(r!.max_steps) && (r!.max_steps as number) > 0)) lacks('"max_steps" must be a positive integer');
  const dirs = r!.directives ?? [];
  if (!Array.isArray(dirs) || dirs.some((d) => typeof d !== 'string')) lacks('"directives" must be a list of module paths');
  const mods = r!.modules ?? [];
  if (!Array.isArray(mods) || mods.some((m) => typeof m !== 'object' || m === null || ['path', 'sha256', 'source'].some((k) => typeof (m as Record<string, unknown>)[k] !== 'string'))) {
    lacks('"modules" must be a list of {path, sha256, source}');
  }
  const c = r!.case as Record<string, unknown> | undefined;
  if (typeof c !== 'object' || c === null || Array.isArray(c)) lacks('"case" must be an object');
  for (const k of ['program', 'schedule', 'target', 'term'] as const) if (c![k] !== undefined && typeof c![k] !== 'string') lacks(`"case.${k}" must be a string`);
  for (const k of ['input', 'extra'] as const) if (c![k] !== undefined && (typeof c![k] !== 'object' || c![k] === null)) lacks(`"case.${k}" must be an object`);
  return { ...(r as Reproducer), directives: dirs as string[] };
}

/**
 * What a timeout reproducer expected, worded one way wherever the time ran out (in the campaign's
 * worker, while a replay made the case, or while it checked it).
 */
export const finishesWithin = (ms: number): string => `the check finishes within ${ms} ms`;
