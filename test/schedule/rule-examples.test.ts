// Example test for [SCHED-RUN]: a composite user directive may run only directives that exist.
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { examplesDir, scratch } from '../support/files.js';

const { file } = scratch('refsem-sched-run-');

describe('[SCHED-RUN] steps of a composite directive', () => {
  it('a step naming no registered directive is rejected at the composite directive, naming the step', async () => {
    const mod = file(
      'twice.mjs',
      `export default (api) => api.defineDirective({
  name: 'twice', phase: 'loops', params: [{ name: 'loop', type: 'loop' }],
  validate(t, a, ctx) { ctx.run(t, 'no-such-directive', { loop: a.loop }); },
  apply(t, a, ctx) { return ctx.run(t, 'no-such-directive', { loop: a.loop }); },
  generate() { return undefined; },
});
`,
    );
    const sched = file('s.sched', 'twice f.s0.x\n');
    const r = await runCli(['schedule', `${examplesDir}/sec22.alg`, '--schedule', sched, '--directive', mod]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/s\.sched:1:1: error: .*there is no directive 'no-such-directive' to run as a step/);
    expect(r.stderr).toContain('SCHED-RUN');
  });

  it('steps naming built-ins run: the bundled tile directive splits and swaps', async () => {
    const r = await runCli(['schedule', `${examplesDir}/blur.alg`, '--schedule', `${examplesDir}/blur-tiled.sched`, '--directive', `${examplesDir}/directives/tile.mjs`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/for blur_y\.s0\.\w+o in/);
  });
});
