// Inputs and algorithms as reproducer text, and back.
import { UserError } from '../../diag.js';
import { type Int, intFromString } from '../../expr/value.js';
import type { Input, Pipeline } from '../../alg-semantics/ast.js';
import { parsePipeline } from '../../alg-semantics/parse.js';
import type { FuzzEnv } from '../env.js';
import { printPipeline } from '../../alg-semantics/print.js';
import type { CaseText, InputText } from '../property.js';

export function inputText(z: Input): InputText {
  return {
    window: z.window.map(([m, l]) => [m.toString(), l.toString()] as const),
    params: Object.fromEntries([...z.params].map(([k, v]) => [k, v.toString()])),
  };
}

export function inputOf(t: CaseText): Input {
  if (!t.input) throw new UserError('the reproducer has no input', undefined, 'a reproducer needs "input": {"window": …, "params": …}');
  return {
    window: t.input.window.map(([m, l]) => [intFromString(m), intFromString(l)] as const),
    params: new Map<string, Int>(Object.entries(t.input.params).map(([k, v]) => [k, intFromString(v)])),
  };
}

/** The reproducer's algorithm, checked with the campaign's validity (a zoo fault may loosen it). */
export function programOf(t: CaseText, env: FuzzEnv): Pipeline {
  if (t.program === undefined) throw new UserError('the reproducer has no program', undefined, 'a reproducer needs "program"');
  const p = parsePipeline(t.program, '<reproducer program>');
  const [bad] = env.validate(p);
  if (bad !== undefined) throw new UserError(`the reproducer's program is not valid: ${bad}`);
  return p;
}

export const programText = printPipeline;

/** Shape for de-duplication: the text with every integer literal abstracted. */
export const abstractInts = (s: string): string => s.replace(/-?\b\d+\b/g, '#');

export function showInput(z: Input): string {
  const w = z.window.map(([m, l]) => `${m}+${l}`).join(',');
  const ps = [...z.params].map(([k, v]) => `${k}=${v}`).join(' ');
  return `window ${w || '(none)'}${ps ? ` params ${ps}` : ''}`;
}
