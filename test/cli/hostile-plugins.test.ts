// Regressions: a plug-in that called process.exit(0) ended refsem with exit 0 and no word, one
// whose top-level await never settled ended it with Node's exit code 13, and a directive or an
// engine that never returned hung `exec` for good (the watchdog stops such a call), and a directive
// whose apply allocated without bound ended Node with a fatal heap error (exit 134, no message).
// All are now errors of the plug-in, located at the module, exit 2 (the 0–3 contract holds
// whatever a plug-in does).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { examplesDir, scratch } from '../support/files.js';

const bin = join(__dirname, '..', '..', 'bin', 'refsem.js');
const refsem = (args: string[], env: NodeJS.ProcessEnv = process.env) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000, env });
const { file, dir } = scratch('refsem-hostile-plugins-');
const sec22 = join(examplesDir, 'sec22.alg');
const empty = file('empty.sched', '');
/** A short time limit on plug-in calls and loads, so that a hang is stopped in a moment rather than after 10 s. */
const quick = { ...process.env, REFSEM_PLUGIN_TIME_LIMIT_S: '2' };

describe('plug-ins that try to end refsem or never load', () => {
  it('process.exit while the module loads: a load error at the module, exit 2', () => {
    const m = file('exit-at-load.mjs', 'process.exit(0);\nexport default (api) => api;\n');
    const r = refsem(['exec', sec22, '--schedule', empty, '--directive', m, '--window', '0+3']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${m}:1:9: error: cannot load directive module '${m}': process.exit(0) was called by plug-in code`);
  });

  it('process.exit inside apply: the directive failed, blamed on its module, exit 2', () => {
    const m = file('exit-in-apply.mjs', "export default (api) => api.defineDirective({ name: 'quit', phase: 'loops', params: [{ name: 'loop', type: 'loop' }],\n  validate() {}, apply() { process.exit(0); }, generate() { return []; } });\n");
    const s = file('quit.sched', 'quit f.x\n');
    const r = refsem(['exec', sec22, '--schedule', s, '--directive', m, '--window', '0+3']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`quit f.x: directive 'quit' from ${m} failed: process.exit(0) was called by plug-in code`);
  });

  it('a top-level await that never settles: a load error after the time limit, exit 2', () => {
    const m = file('stalls.mjs', 'await new Promise(() => {});\nexport default (api) => api;\n');
    const r = refsem(['exec', sec22, '--schedule', empty, '--directive', m, '--window', '0+3'], quick);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`cannot load directive module '${m}': the module did not finish loading within 2 s`);
  }, 60_000);

  it('a directive whose apply never returns: stopped by the watchdog, blamed on its module, exit 2', () => {
    const m = file('spin.mjs', "export default (api) => api.defineDirective({ name: 'spin', phase: 'loops', params: [{ name: 'loop', type: 'loop' }],\n  validate() {}, apply() { for (;;) {} }, generate() { return undefined; } });\n");
    const s = file('spin.sched', 'spin f.x\n');
    const r = refsem(['exec', sec22, '--schedule', s, '--directive', m, '--window', '0+3'], quick);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`spin f.x: directive 'spin' from ${m} failed: apply of directive 'spin' from ${m} did not return within 2 s (stopped by the watchdog)`);
  }, 60_000);

  it('a bounds engine whose complete never returns: stopped by the watchdog, exit 2', () => {
    const m = file('spin-engine.mjs', "export default { name: 'spin', complete() { for (;;) {} } };\n");
    const r = refsem(['exec', sec22, '--engine', m, '--window', '0+3'], quick);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`complete of bounds engine 'spin' from ${m} did not return within 2 s (stopped by the watchdog)`);
  }, 60_000);

  it.each(['0', 'ten', '-3'])('REFSEM_PLUGIN_TIME_LIMIT_S=%s is refused before any plug-in loads, exit 2', (value) => {
    const m = file('fine.mjs', 'export default (api) => api;\n');
    const r = refsem(['exec', sec22, '--schedule', empty, '--directive', m, '--window', '0+3'], { ...process.env, REFSEM_PLUGIN_TIME_LIMIT_S: value });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`<command line>: error: REFSEM_PLUGIN_TIME_LIMIT_S=${value} is not a time limit`);
    expect(r.stderr).toContain('set REFSEM_PLUGIN_TIME_LIMIT_S to a number of seconds, at least 1 (default 10), or unset it');
  });

  it('a directive whose apply allocates without bound: stopped at the heap limit, blamed on its module, exit 2', () => {
    const m = file('hog.mjs', "export default (api) => api.defineDirective({ name: 'hog', phase: 'loops', params: [{ name: 'loop', type: 'loop' }],\n  validate() {}, apply() { const a = []; for (;;) a.push(new Array(1e5).fill(a.length)); }, generate() { return []; } });\n");
    const s = file('hog.sched', 'hog f.x\n');
    // A small limit, so that the heap is exhausted in a moment rather than after 4 GB.
    const r = refsem(['exec', sec22, '--schedule', s, '--directive', m, '--window', '0+3'], { ...process.env, REFSEM_PLUGIN_HEAP_MB: '64' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`<command line> --directive ${m}: error: the command ran out of memory with plug-in module '${m}' loaded: its heap is limited to 64 MB`);
    expect(r.stderr).toContain('raise the limit with REFSEM_PLUGIN_HEAP_MB');
  }, 60_000);

  it('replay of a reproducer whose embedded plug-in allocates without bound: stopped at the heap limit too, exit 2', () => {
    // The module throws while a campaign finds the case, and allocates once HOG is set, at replay.
    const m = file('boom.mjs', "export default (api) => api.defineDirective({ name: 'boom', phase: 'loops', params: [{ name: 'loop', type: 'loop' }],\n  validate() {},\n  apply() { if (process.env.HOG) { const a = []; for (;;) a.push(new Array(1e5).fill(a.length)); } throw new Error('boom'); },\n  generate(t, rng) { const l = api.pick(rng, api.loopsOf(t)); return l ? { loop: l.stmt.var } : undefined; } });\n");
    const out = join(dir, 'boom-out');
    expect(refsem(['fuzz', '--directive', m, '--runs', '5', '--seed', '1', '--jobs', '1', '--property', 'confluence', '--out', out]).status).toBe(1);
    const repro = readdirSync(out).find((f) => f.startsWith('confluence-'))!;
    const r = refsem(['replay', join(out, repro)], { ...process.env, HOG: '1', REFSEM_PLUGIN_HEAP_MB: '64' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`the command ran out of memory with plug-in module '${m}' loaded: its heap is limited to 64 MB`);
  }, 60_000);

  it('a heap limit that is not a number of megabytes: a command-line error, exit 2', () => {
    const r = refsem(['exec', sec22, '--schedule', empty, '--directive', file('plain.mjs', 'export default [];\n'), '--window', '0+3'], { ...process.env, REFSEM_PLUGIN_HEAP_MB: 'lots' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('<command line>: error: REFSEM_PLUGIN_HEAP_MB=lots is not a heap limit');
  });

  it('a command that loads a well-behaved plug-in runs in the bounded worker with its output intact', () => {
    const r = refsem(['exec', sec22, '--schedule', empty, '--directive', file('none.mjs', 'export default [];\n'), '--window', '0+3']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('f over x in (0, 3)');
  });
});
