// What `refsem swizzle synth` reports (the seed's §5.3): the states visited, the share of the
// search space pruned, and the ineffectiveness factor against an oracle; every solution re-checked
// by the evaluator.
import type { SwzProgram } from './ast.js';
import { evaluate, goalMismatch } from './eval.js';
import type { Shape } from './shape.js';
import type { SynthResult } from './synth.js';

export function flatToIndex(k: number, shape: Shape): string {
  const idx: number[] = [];
  for (let d = shape.length - 1; d >= 0; d--) {
    idx.unshift(k % shape[d]!);
    k = Math.floor(k / shape[d]!);
  }
  return `[${idx.join(', ')}]`;
}

export interface Summary {
  readonly solved: boolean;
  readonly complete: boolean;
  readonly solutions: number;
  /** every solution re-evaluated and equal to the goal */
  readonly rechecked: boolean;
  readonly states: number;
  readonly kept: number;
  readonly space: number;
  /** 1 − states / space */
  readonly pruned: number;
  readonly oracle?: number;
  readonly oracleKept?: number;
  /** states built / the oracle's (Figure 11), when every solution was found */
  readonly ineffectiveness?: number;
  /** states kept / the oracle's: the same comparison made between holes only */
  readonly keptRatio?: number;
  readonly prunedBy: SynthResult['prunedBy'];
  readonly ms: SynthResult['ms'];
  readonly lines: readonly string[];
}

export function summarize(p: SwzProgram, r: SynthResult): Summary {
  const rechecked = r.solutions.every((f) => goalMismatch(p, evaluate(p, f)) < 0);
  const pruned = r.space > 0 ? 1 - r.states / r.space : 0;
  const ineffectiveness = r.oracle !== undefined && r.oracle > 0 ? r.states / r.oracle : undefined;
  const keptRatio = r.oracleKept !== undefined && r.oracleKept > 0 ? r.kept / r.oracleKept : undefined;
  const lines = [
    `solutions: ${r.solutions.length}${r.complete ? ' (search complete)' : r.solutions.length ? ' (stopped at the first; --all for every one)' : ' (timed out: unknown)'}${r.solutions.length ? `, each re-checked by the evaluator: ${rechecked ? 'goal met' : 'MISMATCH'}` : ''}`,
    `states: ${r.states} built, ${r.kept} kept; search space ${r.space}; pruned ${(pruned * 100).toFixed(4)}% (pairs ${r.prunedBy.pairs}, copies ${r.prunedBy.copies})`,
    r.oracle !== undefined
      ? `oracle: ${r.oracle} built, ${r.oracleKept} kept; ineffectiveness ${ineffectiveness === undefined ? 'n/a (nothing built)' : ineffectiveness.toFixed(2)}; kept ratio ${keptRatio === undefined ? 'n/a (no state between holes)' : keptRatio.toFixed(2)}`
      : 'oracle: not computed (needs --all and a complete search)',
  ];
  return { solved: r.solutions.length > 0, complete: r.complete, solutions: r.solutions.length, rechecked, states: r.states, kept: r.kept, space: r.space, pruned, ...(r.oracle !== undefined ? { oracle: r.oracle, oracleKept: r.oracleKept ?? 0 } : {}), ...(ineffectiveness !== undefined ? { ineffectiveness } : {}), ...(keptRatio !== undefined ? { keptRatio } : {}), prunedBy: r.prunedBy, ms: r.ms, lines };
}
