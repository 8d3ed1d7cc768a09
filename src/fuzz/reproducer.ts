// Reproducers: one self-contained JSON file per de-duplicated failure. The case is stored as text
// in each language's concrete syntax (program via printPipeline, schedule via printSchedule, …)
// together with the environment (engine, directive modules, zoo fault), the seed and check index
// it came from, and the expected/actual/verdict triple, so `refsem replay FILE` needs nothing else.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UserError } from '../diag.js';
import type { Found } from './check.js';
import type { EnvConfig } from './env.js';
import type { CaseText } from './property.js';

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
  readonly culprit?: string;
  readonly key: string;
  readonly case: CaseText;
  readonly expected: string;
  readonly actual: string;
  readonly shrinks: number;
}

export function reproducerOf(f: Found, seed: number, cfg: EnvConfig): Reproducer {
  return {
    format: REPRO_FORMAT,
    property: f.property,
    verdict: f.failure.verdict,
    seed,
    check: f.index,
    check_seed: f.checkSeed,
    engine: cfg.engine,
    directives: cfg.directives.map((d) => resolve(d)),
    ...(cfg.focus !== undefined ? { focus: cfg.focus } : {}),
    ...(cfg.fault !== undefined ? { fault: cfg.fault } : {}),
    ...(cfg.backend !== undefined ? { backend: cfg.backend } : {}),
    ...(f.culprit !== undefined ? { culprit: f.culprit } : {}),
    key: f.key,
    case: f.text,
    expected: f.failure.expected,
    actual: f.failure.actual,
    shrinks: f.shrinks,
  };
}

/** File name from the de-duplication key: the same failure always lands in the same file. */
export function reproducerName(r: Pick<Reproducer, 'property' | 'key'>): string {
  return `${r.property}-${createHash('sha256').update(r.key).digest('hex').slice(0, 10)}.json`;
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

export function readReproducer(path: string): Reproducer {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UserError(`cannot read reproducer '${path}'`, undefined, 'pass the path of a file written by refsem fuzz');
  }
  let r: Reproducer;
  try {
    r = JSON.parse(text) as Reproducer;
  } catch (e) {
    throw new UserError(`'${path}' is not JSON: ${(e as Error).message}`, { file: path, line: 1, col: 1 });
  }
  if (r?.format !== REPRO_FORMAT) {
    throw new UserError(`'${path}' is not a refsem reproducer (format ${JSON.stringify(r?.format)})`, { file: path, line: 1, col: 1 }, `reproducers have "format": "${REPRO_FORMAT}"`);
  }
  for (const k of ['property', 'verdict', 'engine'] as const) {
    if (typeof r[k] !== 'string') throw new UserError(`reproducer '${path}' lacks "${k}"`, { file: path, line: 1, col: 1 });
  }
  if (typeof r.case !== 'object' || r.case === null) throw new UserError(`reproducer '${path}' lacks "case"`, { file: path, line: 1, col: 1 });
  return { ...r, directives: Array.isArray(r.directives) ? r.directives : [] };
}
