// Generated schedules for the proof tests: directives proposed by their own `generate` and applied
// one at a time with the driver's invariant checks OFF, so that a broken lemma shows up in the
// property that checks it rather than as an exception inside the driver.
import fc from 'fast-check';
import { UserError } from '../../src/diag.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { seededRng } from '../../src/rng.js';
import { applySchedule, generateCall } from '../../src/schedule/apply.js';
import { builtinRegistry } from '../../src/schedule/builtins.js';
import { PHASES, type Directive, type DirectiveCall } from '../../src/schedule/plugin.js';

export const registry = builtinRegistry();

/** One directive proposed by `generate` and applied alone, unchecked; undefined if it applies nowhere. */
export function step(t: TgtProgram, d: Directive, seed: number, history: readonly DirectiveCall[]): { t: TgtProgram; call: DirectiveCall } | undefined {
  const call = generateCall(d, t, seededRng(seed), registry, history);
  if (!call) return undefined;
  try {
    return { t: applySchedule(t, { file: 'gen.sched', calls: [call], registry }, { check: false }), call };
  } catch (e) {
    // a check on the whole schedule (e.g. vectorize's constant extent) refusing a lone call
    if (e instanceof UserError) return undefined;
    throw e;
  }
}

export interface Pick {
  readonly d: number;
  readonly seed: number;
}

/**
 * Applies the picked directives (index into the registry, modulo its size) in phase order, calling
 * `after` on every program produced; returns the final program and the calls applied.
 */
export function randomSchedule(t0: TgtProgram, picks: readonly Pick[], after: (t: TgtProgram, call: DirectiveCall) => void = () => {}): { t: TgtProgram; calls: DirectiveCall[] } {
  const ds = registry.directives;
  const chosen = picks
    .map(({ d, seed }) => ({ d: ds[d % ds.length]!, seed }))
    .sort((a, b) => PHASES.indexOf(a.d.phase) - PHASES.indexOf(b.d.phase));
  let t = t0;
  const calls: DirectiveCall[] = [];
  for (const { d, seed } of chosen) {
    const r = step(t, d, seed, calls);
    if (!r) continue;
    after(r.t, r.call);
    t = r.t;
    calls.push(r.call);
  }
  return { t, calls };
}
