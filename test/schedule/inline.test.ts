// The inline directive (spec/schedule.md, [INLINE]): its rewrite, its validity rules, and the
// confluence of programs where any set of funcs is inlined in any order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_ENGINES, completeProgram } from '../../src/bounds/engine.js';
import { arbInput, arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { lower } from '../../src/lowering/lower.js';
import { seededRng } from '../../src/rng.js';
import { applySchedule, generateCall } from '../../src/schedule/apply.js';
import { builtinRegistry } from '../../src/schedule/builtins.js';
import { inline } from '../../src/schedule/inline.js';
import { funcsOf } from '../../src/schedule/loops.js';
import type { DirectiveCall } from '../../src/schedule/plugin.js';
import { type Case, type Stats, checkCompleted } from './confluence-harness.js';
import { runCli } from '../support/cli.js';
import { scratch } from '../support/files.js';
import { CHAIN, GRID, REDUCE, SEC22, THREE, body, expectRejection, scheduled } from './helpers.js';

describe('inline', () => {
  it('[INLINE] substitutes the definition for every read and removes the allocation and the loops', () => {
    const t = scheduled(SEC22, 'inline g');
    expect(funcsOf(t)).toEqual(['f']);
    expect(body(t)).toContain('f[f.s0.x] <- f.s0.x * f.s0.x + (f.s0.x + 1) * (f.s0.x + 1)');
    expect(body(t)).not.toContain('g');
  });
  it('substitutes through chains, in either order, and into reads nested in arguments', () => {
    const a = body(scheduled(CHAIN, 'inline f\ninline g'));
    expect(a).toBe(body(scheduled(CHAIN, 'inline g\ninline f')));
    expect(a).toContain('h[h.s0.x] <- (h.s0.x * 3 + 1) * ((h.s0.x + 1) * 3 + 1)');
    const nested = `pipeline h() {\n  func g(x) = x + 1;\n  func h(x) = g(g(x) * 2);\n}`;
    expect(body(scheduled(nested, 'inline g'))).toContain('h[h.s0.x] <- (h.s0.x + 1) * 2 + 1');
  });
  it('a func with several readers is substituted in each; parameters stay', () => {
    expect(body(scheduled(THREE, 'inline g'))).toContain('h[h.s0.x] <- f[h.s0.x] + h.s0.x * 3');
    expect(body(scheduled(GRID, 'inline g'))).toContain('f[f.s0.x, f.s0.y] <- f.s0.x + 10 * f.s0.y + (f.s0.x + 1 + 10 * f.s0.y) + n');
  });
  it('is allowed after a reorder of the func\'s loops and after compute-at placed it', () => {
    expect(funcsOf(scheduled(GRID, 'reorder g.x, g.y\ninline g'))).toEqual(['f']);
    expect(funcsOf(scheduled(SEC22, 'compute-at g at f.x\ninline g'))).toEqual(['f']);
    // placed inside a parallel loop, then inlined: no buffer is left to race on ([COMPUTE-AT-PARALLEL])
    expect(funcsOf(scheduled(SEC22, 'traverse f.x parallel\ncompute-at g at f.x\ninline g'))).toEqual(['f']);
  });
  it('the bounds of an inlined func\'s producers come from the reads substituted into its readers', async () => {
    const { file } = scratch('refsem-inline-');
    const alg = file('chain.alg', 'pipeline h() {\n  func g(x) = x * 3;\n  func f(x) = g(x - 1) + g(x + 1);\n  func h(x) = f(x) + f(x + 2);\n}\n');
    for (const engine of ['beta0', 'beta1']) {
      const r = await runCli(['bounds', alg, '--schedule', file('inline.sched', 'inline f\n'), '--engine', engine]);
      expect(r.stdout).toContain('?cpu.min(g.x) = x.min - 1\n?cpu.len(g.x) = x.len + 4\n');
      expect(r.stdout).not.toContain('f.x');
    }
  });
  it('[INLINE-OUTPUT] never the output', () => {
    expectRejection(() => scheduled(SEC22, 'inline f'), 'INLINE-OUTPUT', ["'f'", 'output']);
  });
  it('[INLINE-PURE] never a func with update stages', () => {
    const upd = `pipeline h() {\n  func s(x) {\n    0;\n    rdom(r = (0, 3)) in (x) <- s(x) + r;\n  }\n  func h(x) = s(x) * 2;\n}`;
    expectRejection(() => scheduled(upd, 'inline s'), 'INLINE-PURE', ["'s' has 2 stages"]);
    expectRejection(() => scheduled(REDUCE, 'inline f'), 'INLINE-OUTPUT', ["'f'"]);
  });
  it('[INLINE-NEST] refuses a func whose loops directives changed', () => {
    expectRejection(() => scheduled(SEC22, 'split g.x by 2\ninline g'), 'INLINE-NEST', ["'g'"], 2);
    expectRejection(() => scheduled(GRID, 'traverse g.y parallel\ninline g'), 'INLINE-NEST', ["'g'"], 2);
    expectRejection(() => scheduled(GRID, 'vectorize g.x\ninline g'), 'INLINE-NEST', ["'g'"], 2);
    expectRejection(() => scheduled(SEC22, 'specialize g when 1 > 0\ninline g'), 'INLINE-NEST', ["'g'"], 2);
    // a hand-written program whose g reads a variable of an enclosing loop: it would mean something else at a reader
    const tgt = [
      'pipeline f(; x in (x.min, x.len)):',
      '{',
      '  allocate f(x in (x.min, x.len));',
      '  label f:',
      '    label f.s0:',
      '      for f.s0.x in (x.min, x.len) do {',
      '        allocate g(x in (f.s0.x, 1));',
      '        label g:',
      '          label g.s0:',
      '            for g.s0.x in (f.s0.x, 1) do',
      '              if 1 then g[g.s0.x] <- f.s0.x * 2;',
      '        if 1 then f[f.s0.x] <- g[f.s0.x]',
      '      }',
      '}',
    ].join('\n');
    expectRejection(() => scheduled(tgt, 'inline g'), 'INLINE-NEST', ["'g'"]);
    // a func computed inside the loops of f would be lost with them
    expectRejection(() => scheduled(CHAIN, 'compute-at g at f.x\ninline f'), 'INLINE-NEST', ["'f'", 'placed another func inside them'], 2);
  });
  it('[SCHED-FUNC] an inlined func is gone for later directives', () => {
    expectRejection(() => scheduled(SEC22, 'inline g\nstore-at g at f.x'), 'SCHED-FUNC', ["'g'"], 2);
    expectRejection(() => scheduled(SEC22, 'inline g\nbound g.x min 0 len 4'), 'SCHED-FUNC', ["'g'"], 2);
  });
});

describe('confluence with inlining (lemmas 2.13–2.17)', () => {
  const registry = builtinRegistry();
  it('inlining any funcs in any order keeps every verdict confluent, for β0 and β1', () => {
    let inlined = 0;
    const stats: Stats = { runs: 0, focused: 0, equal: 0 };
    fc.assert(
      fc.property(
        arbPipeline({ minFuncs: 2, maxFuncs: 4, maxDims: 2, maxUpdates: 1, maxRVars: 1, dataDependent: false }).chain((p) =>
          fc.record({
            p: fc.constant(p),
            choices: fc.constant([]),
            inputs: fc.array(arbInput(p, { maxWindowLen: 4, paramRange: [-1, 4] }), { minLength: 1, maxLength: 2 }),
            seed: fc.nat(0xffff),
          })),
        (c: Case) => {
          let t = lower(c.p);
          const calls: DirectiveCall[] = [];
          for (let k = 0; ; k++) {
            const call = generateCall(inline, t, seededRng(c.seed + k), registry, calls);
            if (!call) break;
            t = applySchedule(t, { file: 'gen.sched', calls: [call], registry }, { check: true, pipeline: c.p });
            calls.push(call);
          }
          inlined += calls.length;
          for (const engine of [BUILTIN_ENGINES.beta0!, BUILTIN_ENGINES.beta1!]) {
            const bad = checkCompleted(c, completeProgram(t, engine), stats);
            if (bad) throw new Error(`${engine.name}: ${bad}`);
          }
        },
      ),
      { numRuns: 60, seed: 20261125, endOnFailure: true },
    );
    expect(inlined, 'funcs inlined').toBeGreaterThanOrEqual(40);
    expect(stats.equal, 'verdicts comparing real values').toBeGreaterThanOrEqual(40);
  }, 120_000);
});
