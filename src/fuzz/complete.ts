// Completing a scheduled Tgt? program with the campaign's bounds engine (def. 2.4, §2.7.2).
import { type BoundsEngine, type CompletedProgram, completeProgram } from '../bounds/engine.js';
import type { TgtProgram } from '../target-semantics/ast.js';

export function complete(t: TgtProgram, engine: BoundsEngine): CompletedProgram {
  return completeProgram(t, engine);
}
