// The suite of pipelines modelled on Halide's apps/ (examples/apps/): each, under the schedule the
// app uses, equals its algorithm on windows at and away from the origin, and Halide 14 running the
// same algorithm and schedule gives the same values.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { halideAvailable } from '../../src/halide/run.js';
import { runCli } from '../support/cli.js';
import { examplesDir } from '../support/files.js';

const dir = join(examplesDir, 'apps');
const apps = readdirSync(dir).filter((f) => f.endsWith('.alg')).map((f) => f.replace(/\.alg$/, '')).sort();
/** Windows: one at the origin, one shifted off it (negative coordinates included). */
const IMAGE = ['0+20,0+12', '-5+17,37+9'];
const WINDOWS: Record<string, readonly string[]> = {
  // the colour channels are bounded to 0..2 by the schedule, as in the app
  camera: ['0+20,0+12,0+3', '-5+17,37+9,0+3'],
  conv: ['0+12,0+6,0+4', '-3+9,20+5,1+3'],
};
const windowsOf = (app: string) => WINDOWS[app] ?? IMAGE;
const available = halideAvailable();
if (!available) console.warn('test/examples/apps: Halide comparisons skipped, Halide 14 bindings missing: apt-get install python3-halide');

describe('the apps suite', () => {
  it('has the ten pipelines, each with its Halide-style schedule', () => {
    expect(apps).toEqual(['bilateral', 'camera', 'conv', 'histeq', 'iir', 'maxfilter', 'pyramid', 'resize', 'stencil_chain', 'unsharp']);
    for (const a of apps) expect(readdirSync(dir)).toContain(`${a}.halide`);
  });

  it.each(apps)('%s equals its algorithm under its schedule on every window', async (app) => {
    for (const window of windowsOf(app)) {
      const r = await runCli(['exec', join(dir, `${app}.alg`), '--schedule', join(dir, `${app}.halide`), '--window', window, '--compare']);
      expect(r.stdout, `${window}\n${r.stderr}`).toMatch(/^\[VERDICT-EQUAL\]/);
      expect(r.code).toBe(0);
    }
  }, 60_000);

  it.runIf(available).each(apps)('%s: Halide 14 computes the same values under the same schedule', async (app) => {
    const r = await runCli(['halide', join(dir, `${app}.alg`), '--schedule', join(dir, `${app}.halide`), '--window', windowsOf(app)[0]!, '--run']);
    expect(r.stdout, r.stderr).toMatch(/^equal on \d+ points/);
    expect(r.code).toBe(0);
  }, 60_000);
});
