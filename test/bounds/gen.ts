// Generated cases for the bounds tests: a valid algorithm, a random valid schedule built from the
// scheduling component's own `generate` proposals, and a small input.
import fc from 'fast-check';
import type { Input, Pipeline } from '../../src/alg-semantics/ast.js';
import { arbInput, arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { lower } from '../../src/lowering/lower.js';
import { applySchedule, generateCall } from '../../src/schedule/apply.js';
import { builtinRegistry } from '../../src/schedule/builtins.js';
import { type DirectiveCall, PHASES } from '../../src/schedule/plugin.js';
import { printCall } from '../../src/schedule/print.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';

export interface Case {
  readonly p: Pipeline;
  readonly t: TgtProgram;
  readonly schedule: string;
  readonly input: Input;
}

const registry = builtinRegistry();

/** A seeded source of small integers (mulberry32). */
function rng(seed: number): { below(n: number): number } {
  let a = seed >>> 0;
  return {
    below(n) {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return (((t ^ (t >>> 14)) >>> 0) % Math.max(n, 1));
    },
  };
}

/** Applies the proposals one after another, dropping any the driver rejects. */
export function schedule(p: Pipeline, choices: readonly { d: number; s: number }[]): { t: TgtProgram; text: string } {
  const ds = registry.directives;
  const picked = choices.map((c) => ({ d: ds[c.d % ds.length]!, s: c.s }));
  picked.sort((a, b) => PHASES.indexOf(a.d.phase) - PHASES.indexOf(b.d.phase));
  const t0 = lower(p);
  let t = t0;
  const calls: DirectiveCall[] = [];
  for (const { d, s } of picked) {
    let call: DirectiveCall | undefined;
    try {
      call = generateCall(d, t, rng(s), registry, calls);
    } catch {
      continue;
    }
    if (!call) continue;
    try {
      t = applySchedule(t0, { file: '<gen>', calls: [...calls, call], registry }, { pipeline: p });
      calls.push(call);
    } catch {
      // a proposal the driver rejects in context: left out
    }
  }
  return { t, text: calls.map(printCall).join('; ') };
}

export function arbCase(o: { maxFuncs?: number; directives?: number; dataDependent?: boolean } = {}): fc.Arbitrary<Case> {
  const algs = arbPipeline({ maxFuncs: o.maxFuncs ?? 3, maxDims: 2, maxUpdates: 1, exprDepth: 2, dataDependent: o.dataDependent ?? true });
  const choices = fc.array(fc.record({ d: fc.nat(64), s: fc.nat(0xffff) }), { maxLength: o.directives ?? 4 });
  return fc.tuple(algs, choices).chain(([p, cs]) => {
    const { t, text } = schedule(p, cs);
    return arbInput(p, { maxLen: 4, paramRange: [-1, 4] }).map((input) => ({ p, t, schedule: text, input }));
  });
}
