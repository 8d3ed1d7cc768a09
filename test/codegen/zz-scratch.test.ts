import { it } from 'vitest';
import { runCli } from '../support/cli.js';
it('scratch', async () => {
  for (const argv of [
    ['validate', 'examples/blur.alg', '--schedule', '/tmp/cg/blur.sched', '--backend', 'simd', '--inputs', '4', '--window', '0+20,0+5'],
    ['codegen', 'examples/blur.alg', '--schedule', '/tmp/cg/blur.sched', '-o', '/tmp/cg/blursched.c'],
    ['exec', 'examples/blur.alg', '--schedule', '/tmp/cg/blur.sched', '--window', '0+4,0+2', '--print'],
  ]) {
    const r = await runCli(argv);
    console.log(r.stdout, r.stderr, r.code);
  }
});
