// Regression: computing a producer inside the loop of the one update stage that reads it was
// refused, first with a message claiming the consumer's pure stage (`box@s0[…] <- 0`) reads the
// producer, then because lemma 2.5 was kept for whole funcs. Read per stage, it is accepted.
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { scratch } from '../support/files.js';

const { file } = scratch('refsem-compute-at-stage-');
const BOX = 'pipeline box() {\n  func inp(x) = x * 2;\n  func box(x) {\n    0;\n    rdom(r = (0, 3)) in (x) <- box(x) + inp(x + r);\n  }\n}\n';

describe('compute-at into one stage of a multi-stage consumer', () => {
  it('is accepted: the stage left outside does not read the producer', async () => {
    const r = await runCli(['schedule', file('box.alg', BOX), '--schedule', file('s.sched', 'compute-at inp at box.s1.x\n')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('label inp');
  });

  it('a consumer statement that does read the producer outside the loop keeps the plain message', async () => {
    const three = 'pipeline h() {\n  func g(x) = x * 3;\n  func f(x) = g(x) + 1;\n  func h(x) = f(x) + g(x);\n}\n';
    const r = await runCli(['schedule', file('three.alg', three), '--schedule', file('o.sched', 'compute-at g at f.x\n')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("consumer 'h' reads 'g' outside loop f.s0.x");
  });
});
