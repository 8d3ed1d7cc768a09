// The Halide server ([HALIDE-RUNNER]): one Python process per thread runs many programs, each in a
// forked child, so that a program that crashes, hangs or prints stray lines is a verdict about that
// program and the next one still runs; a server that dies is replaced.
import { describe, expect, it } from 'vitest';
import { PYTHON, halideAvailable, halideServersStarted, runHalide } from '../../src/halide/run.js';
import { HalideServer } from '../../src/halide/server.js';

const available = halideAvailable();
if (!available) console.warn('test/halide: skipped, Halide 14 bindings missing: apt-get install python3-halide');

const values = (xs: number[]) => `import json\nprint('begin')\nprint(json.dumps({"values": ${JSON.stringify(xs.map(String))}}))\n`;

describe.runIf(available)('[HALIDE-RUNNER] the Halide server', () => {
  it('runs programs one after another in one server, whatever they print', async () => {
    const before = halideServersStarted();
    expect(await runHalide(values([1, 2]))).toEqual({ kind: 'values', values: ['1', '2'], warnings: 'begin' });
    expect(await runHalide(`print('{"id": 0, "status": 0}')\n${values([3])}`)).toEqual({ kind: 'values', values: ['3'], warnings: '{"id": 0, "status": 0}\nbegin' });
    expect(halideServersStarted() - before).toBeLessThanOrEqual(1);
  }, 60_000);

  it("[HALIDE-WARM] the server's JIT warm-up leaves it with one thread, so a forked program lacks none of its threads", async () => {
    const r = await runHalide("import json, os\nprint(json.dumps({'values': [str(len(os.listdir('/proc/self/task')))]}))\n");
    expect(r).toEqual({ kind: 'values', values: ['1'] });
  }, 60_000);

  it('a crash that ends by dumping a scope is named by its exception line, not by the dump\'s last line', async () => {
    const r = await runHalide("raise RuntimeError('Internal Error at Scope.h:134 triggered by user code at : Name not in Scope: f0$0\\n{\\n  n\\n  refsem_out.type\\n}')\n");
    expect(r).toEqual({ kind: 'crash', message: 'Internal Error at Scope.h:134 triggered by user code at : Name not in Scope: f0$0' });
  }, 60_000);

  it('a program that dies of a signal is a crash naming it, and the server goes on', async () => {
    const before = halideServersStarted();
    const r = await runHalide('import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n');
    expect(r).toEqual({ kind: 'crash', message: expect.stringMatching(/died of SIGSEGV/) });
    expect(await runHalide(values([4]))).toEqual({ kind: 'values', values: ['4'], warnings: 'begin' });
    expect(halideServersStarted()).toBe(Math.max(before, 1));
  }, 60_000);

  it('a program that hangs (with children of its own) is stopped at its time limit', async () => {
    const r = await runHalide('import os, time\nif os.fork() == 0:\n    time.sleep(600)\ntime.sleep(600)\n', 1_000);
    expect(r).toEqual({ kind: 'crash', message: 'no answer within 1 s; the program was stopped' });
    expect(await runHalide(values([5]))).toEqual({ kind: 'values', values: ['5'], warnings: 'begin' });
  }, 60_000);

  it("Halide's refusal is a rejection with its message; a Python error is a crash with its last line", async () => {
    const rejected = await runHalide("import halide as hl\nf = hl.Func('f')\nx = hl.Var('x')\nf[x] = x\nf.vectorize(hl.Var('nope'))\nf.realize([4])\n");
    expect(rejected.kind).toBe('rejected');
    expect(rejected.kind === 'rejected' && rejected.message).toMatch(/Error:/);
    expect(await runHalide('raise ValueError("bad")\n')).toEqual({ kind: 'crash', message: 'ValueError: bad' });
  }, 60_000);

  it('a 3000 x 3000 window fits: output above 16 MB is read whole, not cut into an unreadable answer', async () => {
    const n = 3_000_000;
    const r = await runHalide(`import json\nprint(json.dumps({"values": [str(1000000 + i) for i in range(${n})]}))\n`);
    expect(r.kind).toBe('values');
    expect(r.kind === 'values' && [r.values.length, r.values[n - 1]]).toEqual([n, String(1000000 + n - 1)]);
  }, 60_000);

  it('a server that dies ends its program as a crash and the next program starts a new one', async () => {
    const s = new HalideServer(PYTHON);
    const lost = await s.run('import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nimport time\ntime.sleep(5)\n', 10_000);
    expect(lost.lost).toMatch(/the Halide server ended \(SIGKILL\)/);
    const next = await s.run(values([6]), 10_000);
    expect(next.stdout).toMatch(/"values": \["6"\]/);
    expect(s.started).toBe(2);
    s.close();
  }, 60_000);
});
