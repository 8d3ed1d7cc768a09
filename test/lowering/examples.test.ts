// Lemma 2.12 on the example programs: completed by hand (symbolic bounds, as a bounds engine would
// give them) and by the demand-derived utility, both executors agree with the algorithm.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { outputFunc } from '../../src/alg-semantics/input.js';
import { isConfluent, showVerdict, verdictFor } from '../../src/lowering/equivalence.js';
import { fillByHand } from '../../src/lowering/handfill.js';
import { lower } from '../../src/lowering/lower.js';
import { fillHoles } from '../../src/target-semantics/holes.js';
import { examplesDir } from '../support/files.js';
import { input } from '../target-semantics/support.js';
import { demandBounds } from './demand-bounds.js';

const EXECUTORS = ['fast', 'machine'] as const;

/** Windows with negative, zero and positive mins, including empty ones. */
const windows = (dims: number) => fc.array(fc.tuple(fc.integer({ min: -4, max: 4 }), fc.integer({ min: 0, max: 5 })), { minLength: dims, maxLength: dims });

/** Symbolic completions derived by hand, with the pipelines they were derived for. */
const HAND: Record<string, { src: string; bounds: Record<string, string>; params?: string[] }> = {
  blur: {
    src: `pipeline blur_y() {
      func input(x, y) = (x * 7 + y * 13) % 256;
      func blur_x(x, y) = (input(x - 1, y) + input(x, y) + input(x + 1, y)) / 3;
      func blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    }`,
    bounds: {
      '?mem.min(input.x)': 'x.min - 1', '?mem.len(input.x)': 'x.len + 2', '?mem.min(input.y)': 'y.min - 1', '?mem.len(input.y)': 'y.len + 2',
      '?cpu.min(input.x)': 'x.min - 1', '?cpu.len(input.x)': 'x.len + 2', '?cpu.min(input.y)': 'y.min - 1', '?cpu.len(input.y)': 'y.len + 2',
      '?mem.min(blur_x.x)': 'x.min', '?mem.len(blur_x.x)': 'x.len', '?mem.min(blur_x.y)': 'y.min - 1', '?mem.len(blur_x.y)': 'y.len + 2',
      '?cpu.min(blur_x.x)': 'x.min', '?cpu.len(blur_x.x)': 'x.len', '?cpu.min(blur_x.y)': 'y.min - 1', '?cpu.len(blur_x.y)': 'y.len + 2',
      '?mem.min(blur_y.x)': 'x.min', '?mem.len(blur_y.x)': 'x.len', '?mem.min(blur_y.y)': 'y.min', '?mem.len(blur_y.y)': 'y.len',
      '?cpu.min(blur_y.x)': 'x.min', '?cpu.len(blur_y.x)': 'x.len', '?cpu.min(blur_y.y)': 'y.min', '?cpu.len(blur_y.y)': 'y.len',
    },
  },
  // sum(r − 1) and sum(r) for r in [1, n) need stage 0 on [0, n) as well as on the window.
  prefix_sum: {
    src: `pipeline sum(n) {
      func input(x) = x + 1;
      func sum(x) { input(x); rdom(r = (1, n - 1)) in (r) <- sum(r - 1) + sum(r); }
    }`,
    params: ['n'],
    bounds: Object.fromEntries(['?mem.%(input.x)', '?cpu.%(input.x)', '?mem.%(sum.x)', '?cpu.%(sum.x@s0)'].flatMap((h) => [
      [h.replace('%', 'min'), 'min(x.min, 0)'],
      [h.replace('%', 'len'), 'max(x.min + x.len, n) - min(x.min, 0)'],
    ])),
  },
  // input(r) % 4 lies in [0, 4): the histogram's bins.
  histogram: {
    src: `pipeline hist() {
      func input(i) = (i * 5 + 3) % 11;
      func hist(b) { 0; rdom(r = (0, 16)) in (input(r) % 4) <- hist(input(r) % 4) + 1; }
    }`,
    bounds: {
      '?mem.min(input.i)': '0', '?mem.len(input.i)': '16', '?cpu.min(input.i)': '0', '?cpu.len(input.i)': '16',
      '?mem.min(hist.b)': 'min(b.min, 0)', '?mem.len(hist.b)': 'max(b.min + b.len, 4) - min(b.min, 0)',
      '?cpu.min(hist.b@s0)': 'min(b.min, 0)', '?cpu.len(hist.b@s0)': 'max(b.min + b.len, 4) - min(b.min, 0)',
    },
  },
  // i + j lies in [0, 7).
  triangle: {
    src: `pipeline f() { func f(x) { 0; rdom(i = (0, 4), j = (0, 4)) in (i + j) <- f(i + j) + 1 if i < j; } }`,
    bounds: {
      '?mem.min(f.x)': 'min(x.min, 0)', '?mem.len(f.x)': 'max(x.min + x.len, 7) - min(x.min, 0)',
      '?cpu.min(f.x@s0)': 'min(x.min, 0)', '?cpu.len(f.x@s0)': 'max(x.min + x.len, 7) - min(x.min, 0)',
    },
  },
};

describe('hand-derived symbolic completions are confluent (lemma 2.12)', () => {
  it.each(Object.keys(HAND))('%s', (name) => {
    const { src, bounds, params = [] } = HAND[name]!;
    const p = loadPipeline(src, `${name}.alg`);
    const t = fillByHand(lower(p), bounds);
    const dims = outputFunc(p).vars.length;
    fc.assert(fc.property(windows(dims), fc.array(fc.integer({ min: -1, max: 8 }), { minLength: params.length, maxLength: params.length }), (w, ps) => {
      const z = input(w as [number, number][], Object.fromEntries(params.map((q, i) => [q, ps[i]!])));
      for (const executor of EXECUTORS) {
        const v = verdictFor(p, t, z, { executor });
        // Parameters that make an rdom extent negative are excused; nothing else may be.
        expect(v.kind === 'equal' || v.kind === 'vacuous-rdom', showVerdict(v)).toBe(true);
      }
    }), { numRuns: 40, seed: 12 });
  });
});

describe('every example, completed from its demand, is confluent on both executors', () => {
  const files = readdirSync(examplesDir).filter((f) => f.endsWith('.alg')).sort();
  it.each(files)('%s', (file) => {
    const p = loadPipeline(readFileSync(join(examplesDir, file), 'utf8'), file);
    const t = lower(p);
    const dims = outputFunc(p).vars.length;
    let compared = 0;
    fc.assert(fc.property(windows(dims), fc.array(fc.integer({ min: -1, max: 8 }), { minLength: p.params.length, maxLength: p.params.length }), (w, ps) => {
      const z = input(w as [number, number][], Object.fromEntries(p.params.map((q, i) => [q, ps[i]!])));
      const d = demandBounds(p, t, z);
      if (!d) return;
      const filled = fillHoles(t, d.gamma);
      for (const executor of EXECUTORS) {
        const v = verdictFor(p, filled, z, { executor });
        expect(isConfluent(v), showVerdict(v)).toBe(true);
        if (v.kind === 'equal') compared++;
      }
    }), { numRuns: 30, seed: 3 });
    expect(compared).toBeGreaterThan(0);
  });
});
