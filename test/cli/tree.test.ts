// `refsem tree`: the loop nest of a scheduled program, its changes directive by directive
// (--trace), and the changes from another schedule's program (--base), with the directives named.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli } from '../support/cli.js';
import { examplesDir, scratch } from '../support/files.js';

const ex = (f: string) => join(examplesDir, f);

describe('refsem tree', () => {
  const { file } = scratch('refsem-tree-');
  const halves = file('halves.sched', 'split f.x by 2\ncompute-at g at f.xo\n');

  it('prints the lowered program\'s loop nest without a schedule', async () => {
    const r = await runCli(['tree', ex('sec22.alg')]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('loop nest of f');
    expect(lines.filter((l) => l.includes('for serial'))).toHaveLength(2);
    expect(lines.at(-1)).toBe('         └─ store f[f.s0.x]');
  });

  it('with --trace, heads each program with its directive and lists its changes', async () => {
    const r = await runCli(['tree', ex('sec22.alg'), '--schedule', ex('sec22.sched'), '--trace']);
    expect(r.code).toBe(0);
    expect(r.stdout.match(/^\/\/ T\d+ = .*$/gm)).toEqual([
      `// T0 = lowering of ${ex('sec22.alg')}`,
      `// T1 = [SPLIT] split f.x by 3 (${ex('sec22.sched')}:2:1)`,
      `// T2 = [COMPUTE-AT] compute-at g at f.xo (${ex('sec22.sched')}:3:1)`,
      `// T3 = [STORE-AT] store-at g at f.xo (${ex('sec22.sched')}:4:1)`,
    ]);
    expect(r.stdout).toContain('\nsplit    loop f.s0.x split into f.s0.xo, f.s0.xi\n');
    expect(r.stdout).toContain('├─ label g   ← moved\n');
  });

  it('with --base, lists the changes between two schedules and the directive behind each', async () => {
    const r = await runCli(['tree', ex('sec22.alg'), '--schedule', ex('sec22.sched'), '--base', halves]);
    expect(r.code).toBe(0);
    const changes = r.stdout.split('\n\n')[0]!.split('\n').slice(1);
    expect(changes).toEqual([
      `bounds   for f.s0.xo: (0, (?cpu.len(f.x) + 1) / 2) → (0, (?cpu.len(f.x) + 2) / 3)   by [SPLIT] split f.x by 3 (${ex('sec22.sched')}:2:1)`,
      `moved    allocate g moved: was at the top level, now inside for f.s0.xo   by [STORE-AT] store-at g at f.xo (${ex('sec22.sched')}:4:1)`,
      `bounds   for f.s0.xi: (0, 2) → (0, 3)   by [SPLIT] split f.x by 3 (${ex('sec22.sched')}:2:1)`,
    ]);
  });

  it('says when two schedules give the same loop nest', async () => {
    const r = await runCli(['tree', ex('sec22.alg'), '--schedule', halves, '--base', halves]);
    expect(r.stdout).toContain('no change to the loop nest\n');
  });

  it('reads a target program too', async () => {
    const r = await runCli(['tree', ex('stencil.tgt')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^loop nest of /);
  });

  it('reports a refused directive at its line, exit 2', async () => {
    const bad = file('bad.sched', 'split f.x by 0\n');
    const r = await runCli(['tree', ex('sec22.alg'), '--schedule', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`${bad}:1:1: error: `));
  });
});
