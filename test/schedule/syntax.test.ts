// The schedule syntax: parse ∘ print is the identity on calls (up to locations), for calls that
// the directives' own `generate` proposes on generated programs; and every syntax error names its
// file:line:col.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diag.js';
import { stripExprLocs } from '../../src/expr/ast.js';
import type { Expr } from '../../src/expr/ast.js';
import { arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { lower } from '../../src/lowering/lower.js';
import { seededRng } from '../../src/rng.js';
import { applySchedule, generateCall } from '../../src/schedule/apply.js';
import { builtinRegistry } from '../../src/schedule/builtins.js';
import { parseSchedule } from '../../src/schedule/parse.js';
import type { DirectiveCall } from '../../src/schedule/plugin.js';
import { printSchedule } from '../../src/schedule/print.js';
import { userError } from '../support/errors.js';

const registry = builtinRegistry();

/** Arguments without source locations, for comparison. */
function plain(c: DirectiveCall): unknown {
  const strip = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(strip) : typeof v === 'object' && v !== null && 'k' in v ? stripExprLocs(v as Expr) : v;
  return { name: c.directive.name, args: Object.fromEntries(Object.entries(c.args).map(([k, v]) => [k, strip(v)])) };
}

describe('schedule syntax', () => {
  it('print then parse gives back every generated call', () => {
    fc.assert(
      fc.property(arbPipeline({ maxFuncs: 3 }), fc.array(fc.tuple(fc.nat(registry.directives.length - 1), fc.nat(1 << 20)), { maxLength: 8 }), (p, picks) => {
        let t = lower(p);
        const calls: DirectiveCall[] = [];
        for (const [d, seed] of picks) {
          const call = generateCall(registry.directives[d]!, t, seededRng(seed), registry, calls);
          if (!call) continue;
          calls.push(call);
          // keep the program in step when the call fits the phase order, so later calls see it
          try {
            t = applySchedule(t, { file: 'g', calls: [call], registry });
          } catch (e) {
            if (!(e instanceof UserError)) throw e;
            calls.pop();
          }
        }
        const text = printSchedule({ file: 'g.sched', calls, registry });
        const back = parseSchedule(text, 'g.sched', registry);
        expect(back.calls.map(plain)).toEqual(calls.map(plain));
        expect(printSchedule(back)).toBe(text);
      }),
      { numRuns: 60, seed: 5 },
    );
  });

  it('accepts comments, blank lines, ; separators, and every argument form', () => {
    const s = parseSchedule('// tile\nsplit f.x into a, b by n + 1 tail round; swap f.s0.k1.y\n\nspecialize f when x.len > 3, n == 0\nbound f.x min -2 len 8\nalign-bounds f.x modulus 4 remainder 1\n', 't.sched');
    expect(s.calls.map((c) => c.directive.name)).toEqual(['split', 'swap', 'specialize', 'bound', 'align-bounds']);
    expect(s.calls.map((c) => c.loc?.line)).toEqual([2, 2, 4, 5, 6]);
    expect(printSchedule(s)).toBe('split f.x into a, b by n + 1 tail round\nswap f.s0.k1.y\nspecialize f when x.len > 3, n == 0\nbound f.x min -2 len 8\nalign-bounds f.x modulus 4 remainder 1\n');
  });

  it.each([
    ['splat f.x by 2', '1:1', "unknown directive 'splat'"],
    ['split f.x 2', '1:11', "expected 'by'"],
    ['split f.x by 2 tail sideways', '1:21', "'sideways' is not one of guard, shift, round"],
    ['split f.x by 2 swap f.x', '1:16', 'expected the end of the split directive'],
    ['split 3 by 2', '1:7', 'expected a loop name'],
    ['split fx by 2', '1:7', "'fx' is not a loop name"],
    ['compute-at g f.x', '1:14', "expected 'at'"],
    ['bound f min 0 len 2', '1:7', "'f' is not of the form func.dimension"],
    ['traverse f.x\n', '2:1', 'expected one of serial, parallel'],
    ['fuse f.x into a.b', '1:15', "'a.b' cannot be used as a new loop name"],
    ['specialize f when', '1:18', 'expected an expression'],
  ])('%j is rejected at %s', (src, where, msg) => {
    const e = userError(() => parseSchedule(src, 's.sched'));
    expect(e.render()).toContain(`s.sched:${where}: error:`);
    expect(e.message).toContain(msg);
  });
});
