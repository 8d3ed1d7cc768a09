// Example tests for the query rules of fig. 2.10a, β0's quantifier rules, the hole rule of the
// interval semantics and the lifting of engines, each checked where it shows: in the query printed
// with its rules, in β0's trace and in a completion.
import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { evalInterval } from '../../src/expr/interval.js';
import { extractQuery, type QNode } from '../../src/bounds/query.js';
import { cst, hole } from '../../src/expr/ast.js';
import { lower } from '../../src/lowering/lower.js';
import { runCli } from '../support/cli.js';
import { examplesDir, scratch } from '../support/files.js';

const ex = (name: string) => `${examplesDir}/${name}`;

/** The lines of `bounds --query --rules` whose rule is `rule`. */
async function queryLines(args: readonly string[], rule: string): Promise<string[]> {
  const r = await runCli(['bounds', ...args, '--query', '--rules']);
  expect(r.code).toBe(0);
  return r.stdout.split('\n').filter((l) => l.includes(`[${rule}]`)).map((l) => l.trim());
}

describe('query rules (fig. 2.10a)', () => {
  it('[B-PIPELINE]: the non-negative window guards the program, and the output covers the window', async () => {
    const lines = await queryLines([ex('sec22.alg')], 'B-PIPELINE');
    expect(lines[0]).toMatch(/^!\(x\.len < 0\) ⇒/);
    expect(lines).toContain('∀ f.x ∈ (x.min, x.len) :   [B-PIPELINE]');
    expect(lines).toContain('f.x ∈ ?cpu f.x   [B-PIPELINE]');
  });

  it('[B-ALLOC] and [B-LABEL]: an allocation binds the ?mem hole, a label the ?cpu holes of its stages', async () => {
    expect(await queryLines([ex('triangle.alg')], 'B-ALLOC')).toEqual(['∃ ?mem f.x :   [B-ALLOC]']);
    expect(await queryLines([ex('triangle.alg')], 'B-LABEL')).toEqual(['∃ ?cpu f.x, ?cpu f.x@s0 :   [B-LABEL]']);
  });

  it('[B-IF] and [B-NOP]: a conditional splits on its condition; the empty else branch asks nothing', async () => {
    const ifs = await queryLines([ex('triangle.alg')], 'B-IF');
    expect(ifs).toEqual(['f.s1.j < f.s1.i ⇒   [B-IF]', '!(f.s1.j < f.s1.i) ⇒   [B-IF]']);
    expect(await queryLines([ex('triangle.alg')], 'B-NOP')).toEqual(['true   [B-NOP] ∧']);
  });

  it('[B-LET]: a let introduced by split binds its variable in the query', async () => {
    const lets = await queryLines([ex('sec22.alg'), '--schedule', ex('sec22.sched')], 'B-LET');
    expect(lets).toEqual(['let f.s0.x = ?cpu.min(f.x) + f.s0.xo * 3 + f.s0.xi in   [B-LET]']);
  });

  it('[B-MEM] and [B-CPU]: a read lies in its producer’s allocation and in its compute bounds', async () => {
    const mem = await queryLines([ex('sec22.alg')], 'B-MEM');
    const cpu = await queryLines([ex('sec22.alg')], 'B-CPU');
    expect(mem).toContain('f.s0.x + 1 ∈ ?mem g.x   [B-MEM] ∧');
    expect(cpu).toContain('f.s0.x + 1 ∈ ?cpu g.x   [B-CPU] ∧');
  });

  it('[B-SEQ]: the queries of a sequence are conjoined under the sequence’s rule', () => {
    const q = extractQuery(lower(loadPipeline('pipeline f() { func g(x) = x; func f(x) = g(x) + g(x + 1); }', 't.alg')));
    const rules: string[] = [];
    const walk = (n: QNode): void => {
      rules.push(n.rule);
      if (n.k === 'and') n.parts.forEach(walk);
      else if ('body' in n) walk(n.body);
    };
    walk(q.body);
    expect(rules).toContain('B-SEQ');
  });
});

describe('β0 (fig. 2.10b)', () => {
  it('[BETA0-IMPLIES], [BETA0-EXISTS], [BETA0-FORALL] and [BETA0-LET] in the trace of §2.2', async () => {
    const r = await runCli(['bounds', ex('sec22.alg'), '--schedule', ex('sec22.sched'), '--trace']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    // β0 ignores conditions: the guard of the rounded tile is dropped, not used
    expect(lines).toContain('[BETA0-IMPLIES] ignore the antecedent f.s0.x < ?cpu.min(f.x) + ?cpu.len(f.x)');
    expect(lines).toContain('[BETA0-EXISTS] enter the scope of ?mem g.x');
    expect(lines).toContain('[BETA0-FORALL] f.s0.xi ∈ [0, 2]');
    expect(lines).toContain('[BETA0-LET] f.s0.x ∈ [x.min + 3 * f.s0.xo + f.s0.xi, x.min + 3 * f.s0.xo + f.s0.xi]');
  });
});

describe('interval semantics', () => {
  it('[I-HOLE]: a hole end evaluates to the interval the engine holds for it', () => {
    const h = hole({ kind: 'cpu', end: 'min', func: 'f', dim: 'x' });
    const iv = { lo: cst(3), hi: cst(7) };
    const seen: string[] = [];
    const got = evalInterval(h, {
      variable: () => ({ lo: null, hi: null }),
      hole: (x) => (seen.push(`${x.kind}.${x.end}(${x.func}.${x.dim})`), iv),
      access: () => ({ lo: null, hi: null }),
    });
    expect(got).toBe(iv);
    expect(seen).toEqual(['cpu.min(f.x)']);
  });
});

describe('engines', () => {
  const { file } = scratch('refsem-engine-lift-');

  it('[ENGINE-LIFT]: an engine that gives up makes the program `assert 0`, and exec says so', async () => {
    const engine = file('gives-up.mjs', "export default { name: 'gives-up', complete() { return { ok: false, explanation: 'no idea' }; } };\n");
    const r = await runCli(['exec', ex('sec22.alg'), '--engine', engine, '--window', '0+4']);
    expect(r.stderr).toContain('note: bounds engine gives-up failed, the program is `assert 0`: no idea');
  });

  it('[ENGINE-LIFT]: a completion from a plug-in fills every hole of the program', async () => {
    const r = await runCli(['bounds', ex('sec22.alg'), '--engine', ex('engines/window.mjs'), '--program']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('?cpu');
    expect(r.stdout).not.toContain('?mem');
  });
});
