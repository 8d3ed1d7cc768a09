// Synthesis (spec/swizzle.md, [SWZ-SEARCH]): the seed's Algorithm 1 — fill the holes in order,
// depth first, pruning every state the viability tests reject — with the counts the seed reports:
// states visited, the share of the search space pruned, and the oracle's states (§5.3).
import { type Loc, UserError } from '../diag.js';
import { type Filling, type SwzProgram, holesOf } from './ast.js';
import { evalStmt, goalMismatch } from './eval.js';
import { sizeOf } from './shape.js';
import { BOTTOM, ZERO } from './term.js';
import { DEFAULT_MEMORY_MB, type Layout, type MatrixStore, type Reach, layouts, reachability } from './viability.js';

export interface SynthOptions {
  readonly all?: boolean;
  readonly timeoutMs?: number;
  readonly memoryMb?: number;
  /** which viability tests run (all by default); the fuzz property compares against none */
  readonly prune?: { readonly pairs: boolean; readonly copies: boolean };
  /** matrices kept from earlier runs (none by default: every run computes its own) */
  readonly matrices?: MatrixStore;
  /** a deliberately unsound extra rule, planted for the zoo (spec/swizzle.md, [SWZ-PRUNE-SOUND]) */
  readonly fault?: 'single-goal-cell';
}

export interface SynthResult {
  readonly solutions: Filling[];
  readonly complete: boolean;
  /** states built: one per choice tried at a hole */
  readonly states: number;
  /** states that reached a later hole: every test since their own hole let them through */
  readonly kept: number;
  /** states the full tree holds (Σ over holes of the product of the choices so far) */
  readonly space: number;
  /** the states a search guided by an oracle builds: every choice at each state on a solution's path (with all solutions found) */
  readonly oracle?: number;
  /** distinct proper prefixes of solutions: the states that oracle keeps */
  readonly oracleKept?: number;
  readonly prunedBy: { pairs: number; copies: number; fault: number };
  readonly ms: { matrices: number; search: number };
}

interface Tests {
  readonly lay: readonly Layout[];
  readonly reach?: Reach;
  /** per point: the goal terms that must already be present (U(s) less what later statements can make) */
  readonly required: (Set<number> | undefined)[];
  /** per point and goal cell: its required subterms */
  readonly perCell: (number[][] | undefined)[];
  /** per point: the least number of copies of each live location in the goal (Algorithm 4) */
  readonly minCopies: (Float64Array | undefined)[];
  /** per required term: its occurrences in the goal */
  readonly goalCount: Map<number, number>;
}

// implements [SWZ-UNIVERSE]
/**
 * [SWZ-UNIVERSE] The universe of each array: the goal's subterms it may hold. A literal holds its
 * terms; a gather what its arguments hold; a fold the goal's multisets whose elements all lie in
 * its argument's universe (§4). A term is *required* at a point when a live array may hold it and
 * no later statement can make it afresh: only then must it already sit where it can reach the goal.
 * **Decision**: the seed's U(s) alone is unsound when a later literal or fold produces the term
 * (its §4 caveat); subtracting what later statements make keeps the test sound without rewriting
 * the program. What a statement makes afresh: a literal its terms; a fold only its new multisets,
 * built from the values its argument may hold *as cells* (not their subterms, which a fold passes
 * on and does not make); a gather nothing (0 and ⊥, which gathers and folds also make, are never
 * required).
 */
function universes(p: SwzProgram, goalSub: ReadonlySet<number>): { within: Set<number>[]; fresh: Set<number>[] } {
  const within: Set<number>[] = [];
  const fresh: Set<number>[] = [];
  /** per array: the goal subterms it may hold as cells */
  const cells: Set<number>[] = [];
  const t = p.terms;
  const foldsOver = (w: ReadonlySet<number>): Set<number> => {
    const u = new Set<number>();
    for (const y of goalSub) if (t.isFold(y) && t.elements(y).every((e) => w.has(e))) u.add(y);
    return u;
  };
  for (const s of p.stmts) {
    const u = new Set<number>();
    let c = new Set<number>();
    let f = new Set<number>();
    switch (s.rhs.k) {
      case 'lit':
        for (const x of s.rhs.terms) {
          if (goalSub.has(x)) c.add(x);
          for (const y of t.subterms(x)) if (goalSub.has(y)) u.add(y);
        }
        f = u;
        break;
      case 'gather':
        for (const a of s.rhs.args) {
          for (const y of within[a]!) u.add(y);
          for (const y of cells[a]!) c.add(y);
        }
        break;
      case 'fold': {
        for (const y of foldsOver(within[s.rhs.arg]!)) u.add(y);
        for (const y of within[s.rhs.arg]!) u.add(y);
        c = f = foldsOver(cells[s.rhs.arg]!);
        break;
      }
    }
    within.push(u);
    cells.push(c);
    fresh.push(f);
  }
  return { within, fresh };
}

function prepare(p: SwzProgram, firstHole: number, opts: SynthOptions, loc: Loc): Tests {
  const n = p.stmts.length;
  const goal = p.goal!;
  const t = p.terms;
  const goalSub = new Set<number>();
  for (const g of goal.terms) for (const y of t.subterms(g)) goalSub.add(y);
  const { within: us, fresh } = universes(p, goalSub);
  const made: Set<number>[] = p.stmts.map(() => new Set<number>());
  for (let q = n - 2; q >= 0; q--) made[q] = new Set([...made[q + 1]!, ...fresh[q + 1]!]);
  const lay = layouts(p);
  const prune = opts.prune ?? { pairs: true, copies: true };
  const required: (Set<number> | undefined)[] = lay.map(() => undefined);
  const perCell: (number[][] | undefined)[] = lay.map(() => undefined);
  for (let q = firstHole; q < n - 1; q++) {
    const req = new Set<number>();
    for (const k of lay[q]!.vars) for (const y of us[k]!) if (y !== ZERO && y !== BOTTOM && !made[q]!.has(y)) req.add(y);
    required[q] = req;
    perCell[q] = Array.from(goal.terms, (g) => Array.from(t.subterms(g)).filter((y) => req.has(y)));
  }
  const goalCount = new Map<number, number>();
  for (const g of goal.terms) for (const y of t.subterms(g)) goalCount.set(y, (goalCount.get(y) ?? 0) + t.occurrences(y, g));
  const reach = prune.pairs ? reachability(p, lay, firstHole, opts.memoryMb ?? DEFAULT_MEMORY_MB, loc, opts.matrices) : undefined;
  const minCopies = prune.copies ? copyBounds(p, lay, firstHole) : lay.map(() => undefined);
  return { lay, ...(reach ? { reach } : {}), required, perCell, minCopies, goalCount };
}

// implements [SWZ-COPIES]
/**
 * [SWZ-COPIES] min(g ← l): the fewest times the value at live location l is copied into the goal,
 * backwards from 1 per goal cell. A location an array untouched by the statement keeps passes its
 * bound on; a hole adds, to each source, the least over its choices of the copies the cells reading
 * it make; a fold puts each element in its box once.
 */
function copyBounds(p: SwzProgram, lay: readonly Layout[], from: number): (Float64Array | undefined)[] {
  const n = p.stmts.length;
  const out: (Float64Array | undefined)[] = lay.map(() => undefined);
  out[n - 1] = new Float64Array(lay[n - 1]!.size).fill(1);
  for (let q = n - 1; q > from; q--) {
    const after = lay[q]!;
    const before = lay[q - 1]!;
    const m = out[q]!;
    const m0 = new Float64Array(before.size);
    for (const k of after.vars) {
      if (k === q) continue;
      const o = after.offset.get(k)!;
      const o0 = before.offset.get(k)!;
      for (let c = 0; c < sizeOf(p.stmts[k]!.shape); c++) m0[o0 + c] = m[o + c]!;
    }
    const s = p.stmts[q]!;
    const vOff = after.offset.get(q)!;
    const cells = sizeOf(s.shape);
    if (s.rhs.k === 'fold') {
      const K = sizeOf(p.stmts[s.rhs.arg]!.shape) / cells;
      const base = before.offset.get(s.rhs.arg)!;
      for (let c = 0; c < cells; c++) for (let t = 0; t < K; t++) m0[base + c * K + t]! += m[vOff + c]!;
    } else if (s.rhs.k === 'gather') {
      const locs: number[] = [];
      for (const a of s.rhs.args) {
        const base = before.offset.get(a)!;
        for (let c = 0; c < sizeOf(p.stmts[a]!.shape); c++) locs.push(base + c);
      }
      const least = new Float64Array(locs.length).fill(Infinity);
      const contrib = new Float64Array(locs.length);
      for (const g of s.rhs.choices) {
        contrib.fill(0);
        for (let c = 0; c < cells; c++) {
          const src = g.src[c]!;
          if (src >= 0) contrib[src]! += m[vOff + c]!;
        }
        for (let x = 0; x < locs.length; x++) if (contrib[x]! < least[x]!) least[x] = contrib[x]!;
      }
      for (let x = 0; x < locs.length; x++) m0[locs[x]!]! += least[x]!;
    }
    out[q - 1] = m0;
  }
  return out;
}

type Verdict = 'ok' | 'pairs' | 'copies' | 'fault';

/** The live values after point q, laid out as Layout q says. */
function liveValues(lay: Layout, vals: readonly Int32Array[]): Int32Array {
  const out = new Int32Array(lay.size);
  for (const k of lay.vars) out.set(vals[k]!, lay.offset.get(k)!);
  return out;
}

// implements [SWZ-PAIRS]
function viable(p: SwzProgram, T: Tests, q: number, vals: readonly Int32Array[], opts: SynthOptions): Verdict {
  const lay = T.lay[q]!;
  const req = T.required[q]!;
  const t = p.terms;
  const live = liveValues(lay, vals);
  // where each required term sits (as a subterm)
  const where = new Map<number, number[]>();
  for (let l = 0; l < live.length; l++) {
    for (const y of t.subterms(live[l]!)) {
      if (!req.has(y)) continue;
      let ls = where.get(y);
      if (!ls) where.set(y, (ls = []));
      ls.push(l);
    }
  }
  const minC = T.minCopies[q];
  if (minC) {
    // [SWZ-COPIES] Algorithm 4: more copies of a term are bound to reach the goal than it holds
    for (const [y, ls] of where) {
      let b = 0;
      for (const l of ls) b += minC[l]! * t.occurrences(y, live[l]!);
      if (b > (T.goalCount.get(y) ?? 0)) return 'copies';
    }
  }
  const cells = T.perCell[q]!;
  if (opts.fault === 'single-goal-cell') {
    // planted, unsound: a required term of a goal cell must already sit at that very cell's index
    for (let i = 0; i < cells.length && i < live.length; i++) for (const a of cells[i]!) if (!t.subterms(live[i]!).includes(a)) return 'fault';
  }
  const reach = T.reach;
  if (!reach) return 'ok';
  const R = reach.rows[q]!;
  const W = reach.words[q]!;
  const G = cells.length;
  const sw = lay.stride >>> 5;
  const bitsOf = new Map<number, Uint32Array>();
  const bitset = (y: number): Uint32Array => {
    let b = bitsOf.get(y);
    if (!b) {
      b = new Uint32Array(sw);
      for (const l of where.get(y) ?? []) b[l >>> 5]! |= 1 << (l & 31);
      bitsOf.set(y, b);
    }
    return b;
  };
  const S = new Uint32Array(sw);
  // [SWZ-PAIRS] Algorithm 3: for goal cells i, j and required terms a ⊑ g[i], b ⊑ g[j], some pair
  // of locations reaching (i, j) must hold a and b. The diagonal first: it fails soonest.
  for (let d = 0; d < 2; d++) {
    for (let i = 0; i < G; i++) {
      const ai = cells[i]!;
      if (ai.length === 0) continue;
      for (let j = d === 0 ? i : 0; j < (d === 0 ? i + 1 : G); j++) {
        if (d === 1 && i === j) continue;
        const bj = cells[j]!;
        if (bj.length === 0) continue;
        const row = (i * G + j) * W;
        for (const a of ai) {
          S.fill(0);
          let any = false;
          for (const l1 of where.get(a) ?? []) {
            const base = row + l1 * sw;
            for (let w = 0; w < sw; w++) {
              const v = R[base + w]!;
              if (v) {
                S[w]! |= v;
                any = true;
              }
            }
          }
          if (!any) return 'pairs';
          for (const b of bj) {
            const B = bitset(b);
            let hit = false;
            for (let w = 0; w < sw; w++) {
              if (S[w]! & B[w]!) {
                hit = true;
                break;
              }
            }
            if (!hit) return 'pairs';
          }
        }
      }
    }
  }
  return 'ok';
}

// implements [SWZ-SEARCH]
/** Algorithm 1: the solutions, and the counts of §5.3. */
export function synthesize(p: SwzProgram, opts: SynthOptions = {}): SynthResult {
  const goal = p.goal;
  if (!goal) throw new UserError('the program has no goal to synthesize for', { file: p.file, line: 1, col: 1 }, 'add a line goal NAME = …');
  const holes = holesOf(p);
  const n = p.stmts.length;
  const t0 = Date.now();
  const firstHole = holes[0] ?? n - 1;
  const T = prepare(p, firstHole, opts, goal.loc);
  const t1 = Date.now();
  const deadline = opts.timeoutMs === undefined ? Infinity : t0 + opts.timeoutMs;
  const holeAt = new Map(holes.map((h, i) => [h, i]));
  const vals: Int32Array[] = [];
  const filling: number[] = [];
  const solutions: Filling[] = [];
  const prunedBy = { pairs: 0, copies: 0, fault: 0 };
  let states = 0;
  let kept = 0;
  let stopped = false;
  let timedOut = false;
  const run = (q: number): void => {
    if (stopped) return;
    if (q === n) {
      if (goalMismatch(p, vals) < 0) {
        solutions.push(filling.slice());
        if (!opts.all) stopped = true;
      }
      return;
    }
    const h = holeAt.get(q);
    if (h === undefined) {
      // Algorithm 1 tests the state after every statement, a statement without a hole being one
      // choice: a fold can reveal what the holes before it got wrong (products of a and b
      // mismatched, §5.3)
      vals[q] = evalStmt(p, q, vals, 0);
      if (q > firstHole && q < n - 1) {
        const v = viable(p, T, q, vals, opts);
        if (v !== 'ok') {
          prunedBy[v]++;
          return;
        }
      }
      run(q + 1);
      return;
    }
    // a state that reaches a later hole is kept: every test since its own hole let it through
    if (h > 0) kept++;
    const choices = (p.stmts[q]!.rhs as { choices: readonly unknown[] }).choices.length;
    for (let c = 0; c < choices && !stopped; c++) {
      if ((states & 255) === 0 && Date.now() > deadline) {
        stopped = timedOut = true;
        break;
      }
      states++;
      vals[q] = evalStmt(p, q, vals, c);
      filling[h] = c;
      if (q < n - 1) {
        const v = viable(p, T, q, vals, opts);
        if (v !== 'ok') {
          prunedBy[v]++;
          continue;
        }
      }
      run(q + 1);
    }
    filling.length = h;
  };
  run(0);
  const complete = !timedOut && (opts.all === true || solutions.length === 0);
  let space = 0;
  let prod = 1;
  for (const h of holes) {
    prod *= (p.stmts[h]!.rhs as { choices: readonly unknown[] }).choices.length;
    space += prod;
  }
  const choices = holes.map((h) => (p.stmts[h]!.rhs as { choices: readonly unknown[] }).choices.length);
  const oracle = complete && opts.all ? oracleStates(choices, solutions) : undefined;
  return { solutions, complete, states, kept, space, ...(oracle ? { oracle: oracle.built, oracleKept: oracle.kept } : {}), prunedBy, ms: { matrices: t1 - t0, search: Date.now() - t1 } };
}

// implements [SWZ-ORACLE]
/**
 * The states a search with an oracle visits (§5.3: "how many were visited when using an oracle
 * that had information on whether a given candidate state was part of a solution"). Such a search
 * still builds every choice of each state it continues from, but continues only from the states
 * some completion turns into a solution — the distinct prefixes of solutions. At hole d it builds
 * choices(d) × (prefixes of length d), the empty prefix counting once; it keeps the prefixes of
 * length 1 … holes − 1.
 */
function oracleStates(choices: readonly number[], solutions: readonly Filling[]): { built: number; kept: number } {
  let built = 0;
  let kept = 0;
  for (let d = 0; d < choices.length; d++) {
    const prefixes = d === 0 ? 1 : new Set(solutions.map((s) => s.slice(0, d).join(','))).size;
    built += choices[d]! * prefixes;
    if (d > 0) kept += prefixes;
  }
  return { built, kept };
}
