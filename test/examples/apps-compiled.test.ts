// The apps suite (examples/apps/) compiled: under the schedule each app uses, the scalar C and the
// vector C refsem emits compute what the reference computes, on a window off the origin (negative
// coordinates included) and a generated second input. apps.test.ts checks the reference and
// Halide; the benchmark times these binaries, so they are checked here too.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { examplesDir } from '../support/files.js';

const dir = join(examplesDir, 'apps');
const apps = readdirSync(dir).filter((f) => f.endsWith('.alg')).map((f) => f.replace(/\.alg$/, '')).sort();
/** Off the origin; the colour channels and the conv layer's planes stay inside the schedule's bounds. */
const WINDOW: Record<string, string> = { camera: '-5+17,37+9,0+3', conv: '-3+9,20+5,1+3' };

describe('the apps suite, compiled', () => {
  it.each(apps)('%s: scalar and vector C equal the reference under the app schedule', async (app) => {
    for (const backend of ['c', 'simd']) {
      const r = await runCli(['validate', join(dir, `${app}.alg`), '--schedule', join(dir, `${app}.halide`), '--backend', backend, '--inputs', '2', '--window', WINDOW[app] ?? '-5+17,37+9']);
      expect(r.stdout, `${backend}\n${r.stderr}`).toMatch(/^ok: 2 inputs/m);
      expect(r.code).toBe(0);
    }
  }, 120_000);
});
