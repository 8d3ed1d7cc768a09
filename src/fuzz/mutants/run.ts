// Running the mutants: each in a scratch copy of the compiled build (the real dist/ is never
// touched), under the default campaign and, when asked, under the tests of its folder (tests.ts);
// a mutant is killed when the campaign fails (exit 1: a counterexample, or a floor the campaign
// could not meet), survives when it passes, and is "broken" when refsem itself stops (another exit
// code), which a user would notice too.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Mutant, MUTANTS } from './list.js';
import { type TestsResult, runTests } from './tests.js';

/** The package root: dist/fuzz/mutants/run.js → ../../../ */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface CampaignResult {
  readonly outcome: 'killed' | 'survived' | 'broken';
  readonly seconds: number;
  /** what the campaign reported: the first failure's property and verdict, or the exit code */
  readonly detail: string;
}

export interface MutantResult extends Partial<CampaignResult> {
  readonly id: string;
  /** the tests of the mutated module's folder, when asked for */
  readonly tests?: TestsResult;
}

export interface MutantRun {
  /** run the campaign (its arguments); absent: no campaign */
  readonly campaign?: readonly string[];
  readonly tests?: boolean;
}

/** A scratch copy of the build with one mutation planted; throws when the snippet is not there once. */
export function plant(m: Mutant): string {
  const dir = mkdtempSync(join(tmpdir(), `refsem-mutant-${m.id}-`));
  for (const part of ['dist', 'bin', 'spec', 'examples', 'package.json']) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const file = join(dir, 'dist', m.file);
  const text = readFileSync(file, 'utf8');
  const n = text.split(m.find).length - 1;
  if (n !== 1) throw new Error(`mutant ${m.id}: the snippet occurs ${n} times in dist/${m.file} (expected once); update src/fuzz/mutants/list.ts`);
  writeFileSync(file, text.replace(m.find, m.replace));
  return dir;
}

export function runMutant(m: Mutant, run: MutantRun): MutantResult {
  const dir = plant(m);
  try {
    const campaign = run.campaign && runCampaign(dir, run.campaign);
    return { id: m.id, ...campaign, ...(run.tests ? { tests: runTests(m, dir, ROOT) } : {}) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runCampaign(dir: string, campaign: readonly string[]): CampaignResult {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [join(dir, 'bin', 'refsem.js'), 'fuzz', ...campaign, '--json', '--out', join(dir, 'out')], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = Math.round((Date.now() - t0) / 100) / 10;
  if (r.status === 0 || r.status === 1) {
    const last = r.stdout.trim().split('\n').pop() ?? '{}';
    const s = JSON.parse(last) as { failures?: { property: string; verdict: string }[]; below_completion_floor?: boolean };
    const f = s.failures?.[0];
    const detail = f ? `${f.property}: ${f.verdict}` : s.below_completion_floor ? 'below the floor on completions' : 'no failure';
    return { outcome: r.status === 1 ? 'killed' : 'survived', seconds, detail };
  }
  return { outcome: 'broken', seconds, detail: `exit ${r.status ?? r.signal}: ${(r.stderr ?? '').split('\n')[0]}` };
}

export function selectMutants(ids: readonly string[]): Mutant[] {
  if (ids.length === 0) return [...MUTANTS];
  const unknown = ids.filter((id) => !MUTANTS.some((m) => m.id === id));
  if (unknown.length > 0) throw new Error(`unknown mutants: ${unknown.join(', ')}; the mutants are: ${MUTANTS.map((m) => m.id).join(', ')}`);
  return MUTANTS.filter((m) => ids.includes(m.id));
}
