// The equations of fig. 2.9, one example each, plus properties of 𝓛 on generated pipelines.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holeKey, walkExpr } from '../../src/expr/ast.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { type LowerTrace, lower } from '../../src/lowering/lower.js';
import { loopsOf } from '../../src/target-semantics/walk.js';
import type { Stmt } from '../../src/target-semantics/ast.js';
import { holesOf } from '../../src/target-semantics/holes.js';
import { stripLocs } from '../target-semantics/support.js';
import { parseTgt } from '../../src/target-semantics/parse.js';
import { printTgt } from '../../src/target-semantics/print.js';

const strip = stripLocs;
const alg = (src: string) => loadPipeline(src, 'test.alg');
const tgt = (src: string) => strip(parseTgt(src, 'expected.tgt'));

describe('fig. 2.9, equation by equation', () => {
  it('[LOWER-PIPELINE] adds x.min, x.len per output dimension and lowers funcs in definition order', () => {
    const t = lower(alg('pipeline h(n, m) { func g(a) = a; func h(u, v) = g(u) + n; }'));
    expect(t.params).toEqual(['n', 'm']);
    expect(t.window).toEqual([{ dim: 'u', min: 'u.min', len: 'u.len' }, { dim: 'v', min: 'v.min', len: 'v.len' }]);
    expect(t.body.k === 'seq' && t.body.body.map((s) => `${s.k} ${s.k === 'allocate' ? s.func : s.k === 'label' ? s.name : ''}`))
      .toEqual(['allocate g', 'label g', 'allocate h', 'label h']);
  });

  it('[LOWER-FUNC] allocates with one ?mem interval per dimension, then labels the func', () => {
    const t = lower(alg('pipeline f() { func f(x, y) = x; }'));
    const [a] = t.body.k === 'seq' ? t.body.body : [];
    expect(a?.k).toBe('allocate');
    expect(a?.k === 'allocate' && a.dims.map((d) => `${d.dim}:${walkHoles(d.min)},${walkHoles(d.len)}`))
      .toEqual(['x:?mem.min(f.x),?mem.len(f.x)', 'y:?mem.min(f.y),?mem.len(f.y)']);
  });

  it('[LOWER-BODY] puts stage i under label f.s<i>, in order', () => {
    const t = lower(alg('pipeline f() { func f(x) { 0; (x) <- f(x) + 1; (x) <- f(x) * 2; } }'));
    const labels: string[] = [];
    visit(t.body, (s) => s.k === 'label' && labels.push(s.name));
    expect(labels).toEqual(['f', 'f.s0', 'f.s1', 'f.s2']);
  });

  it('[LOWER-STAGE] guards the store with the predicate, relabels self-references to stage i−1 and renames variables', () => {
    const t = lower(alg(`pipeline f(n) {
      func g(x) = x;
      func f(x) { g(x); (x) <- f(x) + g(x + n) if x > n; (x) <- f(x) * 2; }
    }`));
    expect(strip(t)).toEqual(tgt(`pipeline f(n; x in (x.min, x.len)): {
      allocate g(x in (?mem.min(g.x), ?mem.len(g.x)));
      label g: label g.s0: for g.s0.x in (?cpu.min(g.x), ?cpu.len(g.x)) do if 1 then g[g.s0.x] <- g.s0.x;
      allocate f(x in (?mem.min(f.x), ?mem.len(f.x)));
      label f: {
        label f.s0: for f.s0.x in (?cpu.min(f.x@s0), ?cpu.len(f.x@s0)) do if 1 then f@s0[f.s0.x] <- g[f.s0.x];
        label f.s1: for f.s1.x in (?cpu.min(f.x@s1), ?cpu.len(f.x@s1)) do
          if f.s1.x > n then f@s1[f.s1.x] <- f@s0[f.s1.x] + g[f.s1.x + n];
        label f.s2: for f.s2.x in (?cpu.min(f.x), ?cpu.len(f.x)) do if 1 then f[f.s2.x] <- f@s1[f.s2.x] * 2
      }
    }`));
  });

  it('[LOWER-RDOM] makes one loop per reduction variable, r_1 innermost, with the rdom bounds', () => {
    const t = lower(alg('pipeline f(n) { func f(x) { 0; rdom(i = (0, 4), j = (1, n)) in (i + j) <- f(i + j) + 1 if i < j; } }'));
    const loops = loopsOf(t).filter((l) => l.name?.stage === 1);
    expect(loops.map((l) => l.stmt.var)).toEqual(['f.s1.j', 'f.s1.i']);
    expect(strip(t)).toEqual(tgt(`pipeline f(n; x in (x.min, x.len)): {
      allocate f(x in (?mem.min(f.x), ?mem.len(f.x)));
      label f: {
        label f.s0: for f.s0.x in (?cpu.min(f.x@s0), ?cpu.len(f.x@s0)) do if 1 then f@s0[f.s0.x] <- 0;
        label f.s1: for f.s1.j in (1, n) do for f.s1.i in (0, 4) do
          if f.s1.i < f.s1.j then f[f.s1.i + f.s1.j] <- f@s0[f.s1.i + f.s1.j] + 1
      }
    }`));
  });

  it('[LOWER-PURE] loops over the pure dimensions only, x_1 innermost, outside the rdom loops', () => {
    const t = lower(alg(`pipeline f() {
      func f(x, y, z) { 0; rdom(r = (0, 2)) in (x, r, z) <- f(x, r, z) + r; }
    }`));
    const stage1 = loopsOf(t).filter((l) => l.name?.stage === 1).map((l) => l.stmt.var);
    expect(stage1).toEqual(['f.s1.z', 'f.s1.x', 'f.s1.r']);
    const stage0 = loopsOf(t).filter((l) => l.name?.stage === 0).map((l) => l.stmt.var);
    expect(stage0).toEqual(['f.s0.z', 'f.s0.y', 'f.s0.x']);
    // the final stage's compute holes carry no stage tag (def. 2.14)
    expect(holesOf(t).filter((h) => h.kind === 'cpu').map(holeKey)).toEqual([
      '?cpu.min(f.z@s0)', '?cpu.len(f.z@s0)', '?cpu.min(f.y@s0)', '?cpu.len(f.y@s0)', '?cpu.min(f.x@s0)', '?cpu.len(f.x@s0)',
      '?cpu.min(f.z)', '?cpu.len(f.z)', '?cpu.min(f.x)', '?cpu.len(f.x)',
    ]);
  });

  it('traces each equation with its rule ID as it is applied', () => {
    const seen: string[] = [];
    const trace: LowerTrace = (rule, what) => seen.push(`${rule} ${what}`);
    lower(alg('pipeline f() { func f(x) { 0; rdom(r = (0, 2)) in (x) <- f(x) + r; } }'), trace);
    expect(seen).toEqual([
      'LOWER-PIPELINE f', 'LOWER-FUNC f', 'LOWER-BODY f',
      'LOWER-STAGE f.s0', 'LOWER-PURE f.s0.x',
      'LOWER-STAGE f.s1', 'LOWER-RDOM f.s1.r', 'LOWER-PURE f.s1.x',
    ]);
  });
});

function walkHoles(e: Parameters<typeof walkExpr>[0]): string {
  const hs: string[] = [];
  walkExpr(e, (x) => x.k === 'hole' && hs.push(holeKey(x.hole)));
  return hs.join(' ');
}

function visit(s: Stmt, f: (s: Stmt) => void): void {
  f(s);
  if (s.k === 'seq') s.body.forEach((b) => visit(b, f));
  else if (s.k === 'if') [s.then, s.else].forEach((b) => visit(b, f));
  else if (s.k === 'for' || s.k === 'let' || s.k === 'label') visit(s.body, f);
}

describe('𝓛 on generated pipelines', () => {
  it('prints to text that parses back to the same program', () => {
    fc.assert(fc.property(arbPipeline(), (p) => {
      const t = lower(p);
      expect(strip(parseTgt(printTgt(t), 'x.tgt'))).toEqual(strip(t));
    }), { numRuns: 300, seed: 29 });
  });

  it('has exactly one loop per pure dimension and reduction variable of each stage, and the holes of def. 2.14', () => {
    fc.assert(fc.property(arbPipeline(), (p) => {
      const t = lower(p);
      const expected: string[] = [];
      const holes = new Set<string>();
      for (const f of p.funcs) {
        f.vars.forEach((x) => holes.add(`?mem.min(${f.name}.${x})`).add(`?mem.len(${f.name}.${x})`));
        f.stages.forEach((u, i) => {
          const last = i === f.stages.length - 1;
          u.lhs.forEach((e, d) => {
            const x = f.vars[d]!;
            if (e.k !== 'var' || e.name !== x) return;
            expected.push(`${f.name}.s${i}.${x}`);
            const tag = last ? '' : `@s${i}`;
            holes.add(`?cpu.min(${f.name}.${x}${tag})`).add(`?cpu.len(${f.name}.${x}${tag})`);
          });
          u.rdom.forEach((r) => expected.push(`${f.name}.s${i}.${r.name}`));
        });
      }
      expect(loopsOf(t).map((l) => l.stmt.var).sort()).toEqual(expected.sort());
      expect(new Set(holesOf(t).map(holeKey))).toEqual(holes);
    }), { numRuns: 300, seed: 214 });
  });

  it('keeps only the loop variables and parameters free, and references stages as fig. 2.9 labels them', () => {
    fc.assert(fc.property(arbPipeline(), (p) => {
      const t = lower(p);
      visit(t.body, (s) => {
        if (s.k !== 'store') return;
        const f = p.funcs.find((g) => g.name === s.func)!;
        const stage = loopsStageOf(s.idx, s.value);
        for (const e of [...s.idx, s.value]) {
          walkExpr(e, (x) => {
            if (x.k === 'var') expect(p.params.includes(x.name) || /^[^.]+\.s\d+\.[^.]+$/.test(x.name)).toBe(true);
            if (x.k === 'access' && x.func === f.name) expect(x.ref?.stage).toBeDefined();
            if (x.k === 'access' && x.func !== f.name) expect(x.ref).toBeUndefined();
          });
        }
        if (stage !== undefined) expect(s.ref.stage ?? f.stages.length - 1).toBe(stage);
      });
    }), { numRuns: 300, seed: 9 });
  });
});

/** The stage named by the loop variables a store mentions, if any. */
function loopsStageOf(idx: readonly Parameters<typeof walkExpr>[0][], value: Parameters<typeof walkExpr>[0]): number | undefined {
  let stage: number | undefined;
  for (const e of [...idx, value]) {
    walkExpr(e, (x) => {
      const m = x.k === 'var' ? /^[^.]+\.s(\d+)\./.exec(x.name) : null;
      if (m) stage = Number(m[1]);
    });
  }
  return stage;
}
