// The tests' side of a mutant (`npm run mutants -- --tests`): the test files of the mutated
// module's folder (test/<folder>/, the tests that mirror it) run against the scratch build the
// mutant is planted in. Tests import the sources (src/…); a resolver maps every such import to the
// compiled module of the scratch build, so the tests see exactly the mistake the campaign sees.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mutant } from './list.js';

/** A folder's tests should take a few minutes at most; longer is reported, not counted as a kill. */
const TESTS_TIMEOUT_MS = 300_000;

export interface TestsResult {
  readonly outcome: 'killed' | 'survived' | 'timeout' | 'no-tests';
  readonly seconds: number;
  /** the folder run and, when killed, the first failing test file */
  readonly detail: string;
}

/** The scratch build's vitest configuration: imports of src/X.ts resolve to dist/X.js. */
const CONFIG = `import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
const root = dirname(fileURLToPath(import.meta.url));
const src = join(root, 'src');
export default defineConfig({
  plugins: [{
    name: 'sources-to-mutated-build',
    enforce: 'pre',
    resolveId(id, importer) {
      if (!importer || !id.startsWith('.')) return null;
      const rel = relative(src, resolve(dirname(importer), id));
      if (rel.startsWith('..')) return null;
      return join(root, 'dist', rel.replace(/\\.ts$/, '.js'));
    },
  }],
  test: { include: ['test/**/*.test.ts'], pool: 'forks', maxWorkers: 1, testTimeout: 120_000, hookTimeout: 120_000 },
});
`;

/** The folder whose tests judge a mutant: the one mirroring its source module's. */
export const testFolderOf = (m: Mutant): string => `test/${m.source.split('/')[1]!}`;

/** Runs the mutant's folder of tests in the scratch build `dir` (made by plant()), stopping at the first failure. */
export function runTests(m: Mutant, dir: string, root: string): TestsResult {
  const folder = testFolderOf(m);
  if (!existsSync(join(root, folder))) return { outcome: 'no-tests', seconds: 0, detail: folder };
  for (const part of ['src', 'test', 'tsconfig.json']) cpSync(join(root, part), join(dir, part), { recursive: true });
  writeFileSync(join(dir, 'vitest.mutant.config.mjs'), CONFIG);
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', folder, '--config', 'vitest.mutant.config.mjs', '--bail', '1', '--reporter', 'dot'], {
    cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26, timeout: TESTS_TIMEOUT_MS, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  const seconds = Math.round((Date.now() - t0) / 100) / 10;
  if (r.error || r.signal) return { outcome: 'timeout', seconds, detail: `${folder}: stopped after ${seconds} s` };
  if (r.status === 0) return { outcome: 'survived', seconds, detail: folder };
  const failed = /FAIL\s+(\S+\.test\.ts)/.exec(`${r.stdout}\n${r.stderr}`)?.[1];
  return { outcome: 'killed', seconds, detail: failed ?? `${folder}: exit ${r.status}` };
}
