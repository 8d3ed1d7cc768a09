// Shared helpers for the schedule tests: lower an algorithm, parse and apply a schedule with the
// lemma 2.4 / 2.5 checkers on, and inspect rejections.
import { expect } from 'vitest';
import type { UserError } from '../../src/diag.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { lower } from '../../src/lowering/lower.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { parseTgt } from '../../src/target-semantics/parse.js';
import { printStmt } from '../../src/target-semantics/print.js';
import { applySchedule } from '../../src/schedule/apply.js';
import { parseSchedule } from '../../src/schedule/parse.js';
import type { DirectiveRegistry } from '../../src/schedule/plugin.js';
import { userError } from '../support/errors.js';

export function programOf(src: string): { t: TgtProgram; alg?: ReturnType<typeof loadPipeline> } {
  if (src.trimStart().startsWith('pipeline') && src.includes('func')) {
    const alg = loadPipeline(src, 'prog.alg');
    return { t: lower(alg), alg };
  }
  return { t: parseTgt(src, 'prog.tgt') };
}

/** Lowers (or parses) `prog` and applies `sched` with the invariant checks on. */
export function scheduled(prog: string, sched: string, registry?: DirectiveRegistry): TgtProgram {
  const { t, alg } = programOf(prog);
  return applySchedule(t, parseSchedule(sched, 'test.sched', registry), { check: true, ...(alg ? { pipeline: alg } : {}) });
}

export const body = (t: TgtProgram): string => printStmt(t.body);

/** Asserts a rejection: at the given line of test.sched, citing `rule`, mentioning each of `names`. */
export function expectRejection(f: () => unknown, rule: string, names: readonly string[], line = 1): UserError {
  const e = userError(f);
  const text = e.render();
  expect(text).toContain(`test.sched:${line}:1: error:`);
  expect(text).toContain(`[${rule}]`);
  for (const n of names) expect(text).toContain(n);
  return e;
}

export const SEC22 = `
pipeline f() {
  func g(x) = x * x;
  func f(x) = g(x) + g(x + 1);
}`;

export const GRID = `
pipeline f(n) {
  func g(x, y) = x + 10 * y;
  func f(x, y) = g(x, y) + g(x + 1, y) + n;
}`;

/** Two reduction loops (r inner, s outer) whose order matters, and an update stage. */
export const REDUCE = `
pipeline f(n) {
  func g(x) = x + 1;
  func f(x) {
    x;
    rdom(r = (0, 3), s = (0, n)) in (x) <- f(x) * 2 + g(r + s);
  }
}`;

export const THREE = `
pipeline h() {
  func g(x) = x * 3;
  func f(x) = g(x) + 1;
  func h(x) = f(x) + g(x);
}`;

export const CHAIN = `
pipeline h() {
  func g(x) = x * 3;
  func f(x) = g(x) + 1;
  func h(x) = f(x) * f(x + 1);
}`;
