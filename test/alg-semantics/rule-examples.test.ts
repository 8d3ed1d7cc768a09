// Example tests for validity rules of def. 2.10 that no other test names: where the output func
// stands, and that the first stage of a func is pure.
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { scratch } from '../support/files.js';

const { file } = scratch('refsem-alg-rules-');

describe('validity (def. 2.10)', () => {
  it('[VALID-OUTPUT]: the output func must be defined last, and the error points at it', async () => {
    const r = await runCli(['check', file('late.alg', 'pipeline f() { func f(x) = x; func g(x) = f(x); }\n')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("late.alg:1:16: error: the output func 'f' must be the last func defined (def. 2.10), but 'g' follows it [VALID-OUTPUT]");
    expect(r.stderr).toContain("hint: move 'f' to the end of the pipeline");
  });

  it('[VALID-PURE-FIRST]: a pure stage that reads its own func is refused at the reading access', async () => {
    const r = await runCli(['check', file('self.alg', 'pipeline f() { func f(x) = f(x - 1); }\n')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("self.alg:1:28: error: the pure stage of func 'f' refers to 'f' itself");
    expect(r.stderr).toContain('[VALID-PURE-FIRST]');
  });

  it('[VALID-PURE-FIRST]: the same self-reference in an update stage is valid', async () => {
    const r = await runCli(['check', file('upd.alg', 'pipeline f() { func f(x) { x; rdom(r = (1, 3)) in (r) <- f(r - 1) + f(r); } }\n')]);
    expect(r.code).toBe(0);
  });
});
