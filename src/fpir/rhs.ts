// The right sides of lowering rules (spec/fpir.md, [FPIR-LOWER]): trees of intrinsic calls over
// the registers of the wildcards, `x.0` being x's lowest register. One parser checks a rule
// against the table (the entries exist, take that many operands, and get an immediate exactly
// when they need one); one generic evaluator runs a tree on values or on tags.
import { UserError } from '../diag.js';
import type { Intrinsic } from './intrinsics.js';
import { intrinsicNamed } from './machine.js';

export type RhsTerm =
  | { readonly k: 'call'; readonly entry: Intrinsic; readonly args: readonly RhsTerm[]; readonly imm?: number | string }
  | { readonly k: 'part'; readonly var: string; readonly index: number };

const bad = (file: string, msg: string): never => {
  throw new UserError(`[FPIR-LOWER] ${msg}`, { file, line: 1, col: 1 });
};

/** Parses `term` or `[term, term, …]` (the result's registers, lowest first). */
export function parseRhs(text: string, file: string): RhsTerm[] {
  const toks = text.match(/[A-Za-z_][A-Za-z0-9_]*|-?[0-9]+|[()[\],.]/g) ?? [];
  let i = 0;
  const peek = () => toks[i];
  const take = (s?: string): string => {
    const t = toks[i++];
    if (t === undefined || (s !== undefined && t !== s)) bad(file, `expected ${s ?? 'a term'} in '${text}'`);
    return t!;
  };
  const term = (): RhsTerm => {
    const name = take();
    if (peek() === '.') {
      take('.');
      return { k: 'part', var: name, index: Number(take()) };
    }
    const entry = intrinsicNamed(name);
    take('(');
    const args: RhsTerm[] = [];
    let imm: number | string | undefined;
    while (peek() !== ')') {
      if (args.length + (imm !== undefined ? 1 : 0) > 0) take(',');
      const t = peek()!;
      if (/^-?[0-9]+$/.test(t)) imm = Number(take());
      else if (/^c[0-9]+$/.test(t)) imm = take() + (/^-[0-9]+$/.test(peek() ?? '') ? take() : '');
      else args.push(term());
    }
    take(')');
    if (args.length !== entry.args.length) bad(file, `${name} takes ${entry.args.length} operands, got ${args.length}`);
    if ((imm !== undefined) !== (entry.imm !== undefined)) bad(file, `${name} ${entry.imm ? 'needs' : 'takes no'} immediate`);
    return { k: 'call', entry, args, ...(imm !== undefined ? { imm } : {}) };
  };
  const out: RhsTerm[] = [];
  if (peek() === '[') {
    take('[');
    out.push(term());
    while (peek() === ',') {
      take(',');
      out.push(term());
    }
    take(']');
  } else out.push(term());
  if (i !== toks.length) bad(file, `unexpected '${toks[i]}' in '${text}'`);
  return out;
}

/**
 * An immediate written with a constant wildcard: `c0`, or `c0-1` for the wildcard less a fixed
 * amount (x86's rounding shift by c0 is a shift by c0 − 1 then a rounding average). Gives the
 * wildcard's name and the amount added to it.
 */
export function immParts(imm: string): readonly [string, number] {
  const m = /^(c[0-9]+)(-[0-9]+)?$/.exec(imm)!;
  return [m[1]!, Number(m[2] ?? 0)];
}

/** The immediate's value under the constant wildcards' bindings. */
export function immValue(imm: number | string | undefined, consts: ReadonlyMap<string, bigint>): number | undefined {
  if (typeof imm !== 'string') return imm;
  const [name, delta] = immParts(imm);
  return Number(consts.get(name)) + delta;
}

/** Runs a tree: `leaf` gives a wildcard's register, `call` one intrinsic, `consts` the constant wildcards. */
export function evalRhs<V>(t: RhsTerm, leaf: (v: string, index: number) => V, call: (e: Intrinsic, args: V[], imm: number | undefined) => V, consts: ReadonlyMap<string, bigint>): V {
  if (t.k === 'part') return leaf(t.var, t.index);
  return call(t.entry, t.args.map((a) => evalRhs(a, leaf, call, consts)), immValue(t.imm, consts));
}

/** Every intrinsic a tree calls, in call order (operands first). */
export function callsOf(t: RhsTerm): Intrinsic[] {
  return t.k === 'part' ? [] : [...t.args.flatMap(callsOf), t.entry];
}
