// Range proofs decided when a loop starts (spec/codegen.md, [C-NARROW] and [C-PROVED]). The ends
// of the symbolic intervals of fig. 2.10b (src/expr/interval.ts) are expressions in variables
// known at loop entry; the emitted code evaluates them there in exact 128-bit arithmetic and picks
// the loop variant whose shortcuts the values allow.
import type { Expr } from '../expr/ast.js';
import { printExpr } from '../expr/print.js';
import { mangle } from './abi.js';
import { type FunctionWriter, cLiteral } from './c-syntax.js';
import type { OverflowCandidate } from './ranges.js';
import { SharedValues } from './shared-values.js';

/**
 * Symbolic ends can grow quickly (products take min/max over corners); past this much text a
 * proof is not worth its code, and the loop keeps its checked form.
 */
const MAX_PROOF_TEXT = 16000;

/**
 * A [C-NARROW] proof is evaluated as a DAG ([C-PROOF-DAG]): each distinct subterm once. Past this
 * many distinct subterms it is not worth its code, and the loop decides further in (or keeps 64-bit lanes).
 */
const MAX_PROOF_NODES = 3000;

/** The distinct ends to check, or undefined when there are none or they have too many distinct subterms. */
export function worthProving(ends: readonly Expr[] | undefined): Expr[] | undefined {
  if (ends === undefined) return undefined;
  const seen = new SharedValues<true>();
  const uniq: Expr[] = [];
  let nodes = 0;
  const visit = (e: Expr): void => {
    if (seen.get(e) || nodes > MAX_PROOF_NODES) return;
    seen.set(e, true, 0);
    nodes++;
    if (e.k === 'op') for (const a of e.args) visit(a);
  };
  for (const e of ends) {
    if (seen.get(e)) continue;
    uniq.push(e);
    visit(e);
    if (nodes > MAX_PROOF_NODES) return undefined;
  }
  return uniq;
}

/**
 * `C-PROVED`: the operations to prove, innermost (most often run) first, while their ends fit the
 * text budget (an operation left out simply keeps its check), and the distinct ends to evaluate.
 */
export function selectProved(candidates: ReadonlyMap<Expr, OverflowCandidate>): { safe: Set<Expr>; ends: Expr[] } {
  const safe = new Set<Expr>();
  const ends = new Map<string, Expr>();
  let size = 0;
  const order = [...candidates].sort((a, b) => b[1].depth - a[1].depth);
  for (const [op, { ends: es }] of order) {
    if (es === null) continue;
    const fresh = new Map(es.map((e) => [printExpr(e, 'tgt'), e] as const).filter(([k]) => !ends.has(k)));
    let more = 0;
    for (const k of fresh.keys()) more += k.length;
    if (size + more > MAX_PROOF_TEXT) continue;
    size += more;
    for (const [k, e] of fresh) ends.set(k, e);
    safe.add(op);
  }
  return { safe, ends: [...ends.values()] };
}

// implements [C-PROOF-DAG]
/**
 * Emits `const int okN = …;`, true exactly when every end evaluates without leaving ±2^62 on the
 * way and satisfies `fits` (`rs_q_fits32` or `rs_q_fits64`); returns okN. Each distinct subterm
 * of the ends is one 128-bit temporary, evaluated once: the ends of a stage's intervals repeat its
 * consumers' bounds many times over, so as trees their cost grows with the tree, as a DAG with
 * the distinct subterms.
 */
export function emitProof(em: FunctionWriter, ends: readonly Expr[], fits: 'rs_q_fits32' | 'rs_q_fits64', prefix: string): string {
  const ok = em.temp(prefix);
  const bad = em.temp('bad');
  em.line(`int ${bad} = 0;`);
  const done = new SharedValues<string>();
  const q = (e: Expr): string => {
    const known = done.get(e);
    if (known !== undefined) return known;
    const text = qexpr(e, bad, q);
    if (e.k !== 'op') return text;
    const t = em.temp('q');
    em.line(`const rs_q ${t} = ${text};`);
    done.set(e, t, 0);
    return t;
  };
  const checks = ends.map((e) => `${fits}(${q(e)})`);
  em.line(`const int ${ok} = ${checks.length ? checks.join(' && ') : '1'} && !${bad};`);
  return ok;
}

/** A range end's node as exact 128-bit C arithmetic over its arguments' `r`; `bad` is set when a value leaves ±2^62. */
function qexpr(e: Expr, bad: string, r: (x: Expr) => string): string {
  switch (e.k) {
    case 'const': {
      const lit = typeof e.value === 'object' ? undefined : cLiteral(e.value);
      return lit === undefined ? `(${bad} = 1, (rs_q)0)` : `(rs_q)${lit}`;
    }
    case 'var':
      return `(rs_q)v_${mangle(e.name)}`;
    case 'hole':
    case 'access':
      return `(${bad} = 1, (rs_q)0)`;
    case 'op': {
      const [a, b, c] = e.args;
      switch (e.op) {
        case '+':
        case '-':
        case '*':
          return `rs_q_chk(${r(a!)} ${e.op} ${r(b!)}, &${bad})`;
        case 'div':
          return `rs_q_div(${r(a!)}, ${r(b!)})`;
        case 'mod':
          return `rs_q_mod(${r(a!)}, ${r(b!)})`;
        case 'min':
          return `rs_q_min(${r(a!)}, ${r(b!)})`;
        case 'max':
          return `rs_q_max(${r(a!)}, ${r(b!)})`;
        case 'select':
          return `rs_q_sel(${r(a!)}, ${r(b!)}, ${r(c!)})`;
        case '<':
          return `(rs_q)(${r(a!)} < ${r(b!)})`;
        case '>':
          return `(rs_q)(${r(a!)} > ${r(b!)})`;
        case '=':
          return `(rs_q)(${r(a!)} == ${r(b!)})`;
        case 'and':
          return `(rs_q)((${r(a!)} != 0) & (${r(b!)} != 0))`;
        case 'or':
          return `(rs_q)((${r(a!)} != 0) | (${r(b!)} != 0))`;
        case 'not':
          return `(rs_q)(${r(a!)} == 0)`;
      }
    }
  }
}
