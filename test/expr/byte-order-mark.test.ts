// Regression: a source file starting with a UTF-8 byte-order mark was rejected ("unexpected
// character") by every front end. The mark is skipped and locations are unchanged.
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { example, scratch } from '../support/files.js';

const BOM = '\uFEFF';
const { file } = scratch('refsem-bom-');

describe('sources starting with a byte-order mark', () => {
  it('an algorithm runs', async () => {
    const r = await runCli(['run', file('a.alg', `${BOM}pipeline f() { func f(x) = x * 2; }\n`), '--window', '0+3', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).values).toEqual([0, 2, 4]);
  });

  it('a schedule, a target program and a λ1 program are read', async () => {
    const alg = file('s.alg', example('sec22.alg'));
    const sched = file('s.sched', BOM + example('sec22.sched'));
    expect((await runCli(['schedule', alg, '--schedule', sched])).code).toBe(0);
    expect((await runCli(['step', file('t.tgt', BOM + example('stencil.tgt')), '--window', '0+2', '--param', 'k=1', '--every', '1000'])).code).toBe(0);
    const lam = await runCli(['rc', file('m.lam', BOM + example('perceus/map.lam'))]);
    expect(lam.code).toBe(0);
  });

  it('an error after the mark is still located at line 1, column 1', async () => {
    const r = await runCli(['check', file('bad.alg', `${BOM}pipe f() {}\n`)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.alg:1:1: error/);
  });
});
