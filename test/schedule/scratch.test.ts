import { it } from 'vitest';
import { runCli } from '../support/cli.js';
it('scratch', async () => {
  let r = await runCli(['schedule', 'examples/blur.alg', '--schedule', '/tmp/blur.sched', '--directive', 'examples/directives/tile.mjs', '--check']);
  console.log(r.code, r.stdout, r.stderr);
  r = await runCli(['schedule', '--list', '--directive', 'examples/directives/tile.mjs', '--directive', 'examples/directives/split-vectorize.mjs', '--directive', 'examples/directives/unsound-parallel.mjs']);
  console.log(r.code, r.stdout, r.stderr);
});
