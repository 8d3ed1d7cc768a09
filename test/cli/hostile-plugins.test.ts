// Regressions: a plug-in that called process.exit(0) ended refsem with exit 0 and no word, one
// whose top-level await never settled ended it with Node's exit code 13, and a directive or an
// engine that never returned hung `exec` for good (the watchdog stops such a call). Both are now errors of
// the plug-in, located at the module, exit 2 (the 0–3 contract holds whatever a plug-in does).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { examplesDir, scratch } from '../support/files.js';

const bin = join(__dirname, '..', '..', 'bin', 'refsem.js');
const refsem = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });
const { file } = scratch('refsem-hostile-plugins-');
const sec22 = join(examplesDir, 'sec22.alg');
const empty = file('empty.sched', '');

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
    const r = refsem(['exec', sec22, '--schedule', empty, '--directive', m, '--window', '0+3']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`cannot load directive module '${m}': the module did not finish loading within 10 s`);
  }, 60_000);

  it('a directive whose apply never returns: stopped by the watchdog, blamed on its module, exit 2', () => {
    const m = file('spin.mjs', "export default (api) => api.defineDirective({ name: 'spin', phase: 'loops', params: [{ name: 'loop', type: 'loop' }],\n  validate() {}, apply() { for (;;) {} }, generate() { return undefined; } });\n");
    const s = file('spin.sched', 'spin f.x\n');
    const r = refsem(['exec', sec22, '--schedule', s, '--directive', m, '--window', '0+3']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`spin f.x: directive 'spin' from ${m} failed: apply of directive 'spin' from ${m} did not return within 10 s (stopped by the watchdog)`);
  }, 60_000);

  it('a bounds engine whose complete never returns: stopped by the watchdog, exit 2', () => {
    const m = file('spin-engine.mjs', "export default { name: 'spin', complete() { for (;;) {} } };\n");
    const r = refsem(['exec', sec22, '--engine', m, '--window', '0+3']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`complete of bounds engine 'spin' from ${m} did not return within 10 s (stopped by the watchdog)`);
  }, 60_000);
});
