// Reading the seed corpus (`refsem fuzz --seeds DIR`, docs/fuzzing.md "The seed corpus"): each
// `NAME.alg` of the directory is a seed, with its schedule `NAME.halide` (Halide's syntax,
// translated for the algorithm) or `NAME.sched` (refsem's), or none. Every file is read, parsed
// and its schedule applied once, here, so that a bad seed stops the campaign before it starts,
// at the file, line and column of the mistake (exit 2). The cases themselves are the core's
// (gen/seeded.ts).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError, argLoc } from '../diag.js';
import type { Expr } from '../expr/ast.js';
import { loadPipeline } from '../alg-semantics/load.js';
import { lower } from '../lowering/lower.js';
import { applySchedule } from '../schedule/apply.js';
import { readSchedule } from '../schedule/halide-style.js';
import type { DirectiveRegistry } from '../schedule/plugin.js';
import { printSchedule } from '../schedule/print.js';
import { EXAMPLES_DIR } from '../node/package.js';
import { readSource } from '../node/source.js';
import type { SeedCase } from './gen/seeded.js';

/** The default corpus: the apps suite (examples/apps/, docs/apps.md). */
export const BUNDLED_SEEDS: string = join(EXAMPLES_DIR, 'apps');

const SCHEDULES = ['.halide', '.sched'] as const;

const HINT = 'give --seeds a directory of NAME.alg files, each with its schedule NAME.halide or NAME.sched (or none), or --seeds off to run without seeds';

/** `--seeds DIR|apps|off`: the directory of the corpus, or undefined for none. */
export function seedsOption(text: string | undefined): string | undefined {
  if (text === undefined || text === 'apps') return BUNDLED_SEEDS;
  return text === 'off' ? undefined : text;
}

const corpora = new Map<string, readonly SeedCase[]>();

/**
 * The corpus of a directory, read on first call and once per thread for a directory and a list of
 * directive modules: a zoo run or a test makes many environments of one configuration.
 */
export function seedCorpus(dir: string, modules: readonly string[], registry: DirectiveRegistry): () => readonly SeedCase[] {
  const key = [dir, ...modules].join('\0');
  return () => {
    let seeds = corpora.get(key);
    if (!seeds) corpora.set(key, (seeds = loadSeeds(dir, registry)));
    return seeds;
  };
}

/** The seeds of a directory, in the order of their names; throws a UserError at the first bad file. */
export function loadSeeds(dir: string, registry: DirectiveRegistry): SeedCase[] {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a directory');
    names = readdirSync(dir).sort();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException)?.code;
    throw new UserError(`cannot read the seed directory '${dir}': ${code === 'ENOENT' ? 'no such directory' : (e as Error).message}`, argLoc('--seeds', dir), HINT);
  }
  const stems = new Set(names.filter((n) => n.endsWith('.alg')).map((n) => n.slice(0, -'.alg'.length)));
  for (const n of names) {
    const ext = SCHEDULES.find((x) => n.endsWith(x));
    if (ext && !stems.has(n.slice(0, -ext.length))) {
      throw new UserError(`the schedule '${n}' has no algorithm '${n.slice(0, -ext.length)}.alg' beside it`, { file: join(dir, n), line: 1, col: 1 }, `a seed is NAME.alg with its schedule NAME${ext}: add the algorithm, or move the schedule out of the seed directory`);
    }
  }
  if (stems.size === 0) throw new UserError(`no seeds in '${dir}': it has no .alg file`, argLoc('--seeds', dir), HINT);
  return [...stems].map((name) => loadSeed(dir, name, names, registry));
}

function loadSeed(dir: string, name: string, names: readonly string[], registry: DirectiveRegistry): SeedCase {
  const alg = readSource(join(dir, `${name}.alg`));
  const pipeline = loadPipeline(alg.text, alg.file);
  const t0 = lower(pipeline);
  const exts = SCHEDULES.filter((x) => names.includes(`${name}${x}`));
  if (exts.length > 1) {
    throw new UserError(`the seed '${name}' has two schedules, ${name}.halide and ${name}.sched`, { file: join(dir, `${name}.sched`), line: 1, col: 1 }, 'keep one schedule per seed: remove or rename one of them');
  }
  if (exts.length === 0) return { name, pipeline, t0, calls: [], scheduleText: '', bounded: pipeline.funcs.find((f) => f.name === pipeline.output)!.vars.map(() => undefined) };
  const src = readSource(join(dir, `${name}${exts[0]}`));
  const schedule = readSchedule(src.text, src.file, () => t0, registry);
  // A schedule that does not apply to its algorithm is refused with the call at fault.
  applySchedule(t0, schedule);
  const calls = schedule.calls.map((c) => ({ name: c.directive.name, args: c.args }));
  const out = pipeline.funcs.find((f) => f.name === pipeline.output)!;
  const constant = (e: unknown) => ((e as Expr | undefined)?.k === 'const' && typeof (e as { value: unknown }).value === 'number' ? ((e as { value: number }).value) : undefined);
  const bounded = out.vars.map((v) => {
    const args = calls.find((c) => c.name === 'bound' && (c.args as { dim?: unknown }).dim === `${out.name}.${v}`)?.args as { min?: unknown; len?: unknown } | undefined;
    const min = constant(args?.min);
    const len = constant(args?.len);
    return min !== undefined && len !== undefined ? ([min, len] as const) : undefined;
  });
  return { name, pipeline, t0, calls, scheduleText: printSchedule(schedule), bounded };
}
