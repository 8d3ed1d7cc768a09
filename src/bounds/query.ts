// Query extraction 𝓑 (fig. 2.10a, §2.7.1, def. 2.15): a Tgt? program becomes a predicate over
// its parameters whose existentially quantified unknowns are the bounds holes. Every engine reads
// this predicate; β0 walks it backwards (§2.7.2); the checkers evaluate it (concrete-check.ts,
// verify-z3.ts).
import { UserError } from '../diag.js';
import { type Expr, type Hole, type RefLabel, exprEquals, holeKey, op, vr, walkExpr } from '../expr/ast.js';
import { printExpr } from '../expr/print.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { holesOf, stmtExprs } from '../target-semantics/holes.js';
import { visitStmts } from '../target-semantics/walk.js';

/**
 * A hole pair ?ℓ f_x = (?ℓ.min, ?ℓ.len): the interval that a membership `e ∈ ?ℓ f_x` refers to
 * (def. 2.14). Allocation pairs carry no stage; a compute pair without a stage is the final
 * stage's, shared by all specializations.
 */
export interface HolePair {
  readonly kind: 'mem' | 'cpu';
  readonly func: string;
  readonly dim: string;
  readonly stage?: number;
  readonly spec?: number;
}

export type QNode =
  | { readonly k: 'true'; readonly rule: string }
  /** a condition that must hold (a loop extent, or the covering assertion of a bound hint) */
  | { readonly k: 'pred'; readonly e: Expr; readonly rule: string }
  /** e ∈ ?ℓ f_x: the point e lies in the interval of the hole pair */
  | { readonly k: 'in'; readonly e: Expr; readonly pair: HolePair; readonly rule: string }
  | { readonly k: 'and'; readonly parts: readonly QNode[]; readonly rule: string }
  /** cond ⇒ body; `inside` is set when cond says the points ē lie in compute bounds ([B-STORE]) */
  | { readonly k: 'implies'; readonly cond: Expr; readonly body: QNode; readonly rule: string; readonly inside?: readonly { e: Expr; pair: HolePair }[] }
  /** ∀ v ∈ (min, len) : body */
  | { readonly k: 'forall'; readonly v: string; readonly min: Expr; readonly len: Expr; readonly body: QNode; readonly rule: string }
  /** ∃ holes : body — the holes may depend on every variable bound around this node */
  | { readonly k: 'exists'; readonly pairs: readonly HolePair[]; readonly body: QNode; readonly rule: string }
  | { readonly k: 'let'; readonly v: string; readonly e: Expr; readonly body: QNode; readonly rule: string };

/** 𝓑(T): `∀ p̄ ∈ [−∞, ∞] : body`. `dims` gives each func's dimension names in index order. */
export interface Query {
  readonly params: readonly string[];
  /** the holes of the program, each with its key: what a completion must give values for */
  readonly holes: readonly { readonly key: string; readonly hole: Hole }[];
  readonly body: QNode;
  readonly dims: ReadonlyMap<string, readonly string[]>;
  readonly output: string;
  /** allocation pairs whose `allocate` gives expressions rather than the pair's own holes */
  readonly fixed: ReadonlyMap<string, { readonly min: Expr; readonly len: Expr }>;
}

export const pairKey = (p: HolePair): string => {
  const tag = p.stage === undefined ? '' : `@s${p.stage}${p.spec ? `.k${p.spec}` : ''}`;
  return `?${p.kind} ${p.func}.${p.dim}${tag}`;
};

export function pairHole(p: HolePair, end: 'min' | 'len'): Hole {
  const { kind, func, dim } = p;
  if (kind === 'mem' || p.stage === undefined) return { kind, end, func, dim };
  return p.spec ? { kind, end, func, dim, stage: p.stage, spec: p.spec } : { kind, end, func, dim, stage: p.stage };
}

export const pairOfHole = (h: Hole): HolePair => {
  const { kind, func, dim } = h;
  if (kind === 'mem' || h.stage === undefined) return { kind, func, dim };
  return h.spec ? { kind, func, dim, stage: h.stage, spec: h.spec } : { kind, func, dim, stage: h.stage };
};

/** The compute pair an access or store with label `ref` refers to (def. 2.14). */
const cpuPair = (func: string, dim: string, ref: RefLabel | undefined): HolePair =>
  pairOfHole({ kind: 'cpu', end: 'min', func, dim, ...(ref?.stage === undefined ? {} : { stage: ref.stage, ...(ref.spec ? { spec: ref.spec } : {}) }) });

const T: QNode = { k: 'true', rule: 'B-NOP' };

/** The rule of a compute-bounds membership from an index or control position ([B-CPU]). */
export const B_CPU = 'B-CPU';

function and(parts: QNode[], rule = 'B-SEQ'): QNode {
  const kept = parts.flatMap((p) => (p.k === 'true' ? [] : p.k === 'and' ? p.parts : [p]));
  if (kept.length === 0) return T;
  return kept.length === 1 ? kept[0]! : { k: 'and', parts: kept, rule };
}

/** What the extraction needs to know about the whole program. */
interface Ctx {
  readonly dims: ReadonlyMap<string, readonly string[]>;
  /** stage numbers mentioned for each func (explicit stages only; the final stage has none) */
  readonly stages: ReadonlyMap<string, ReadonlySet<number>>;
  /** compute pairs of each func, program holes and the ones only accesses mention */
  readonly cpuPairs: Map<string, Map<string, HolePair>>;
  /** the binder list of each `label f` node, filled once the whole program has been read */
  readonly labelPairs: Map<string, HolePair[]>;
}

function funcDims(body: Stmt): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  visitStmts(body, (s) => {
    if (s.k === 'allocate' && !out.has(s.func)) out.set(s.func, s.dims.map((d) => d.dim));
  });
  return out;
}

/** Dimension names of `func` in index order; an access to a func that is never allocated is refused. */
function dimsOf(ctx: Ctx, func: string, arity: number, where: Expr | Stmt): readonly string[] {
  const d = ctx.dims.get(func);
  if (!d) throw new UserError(`func '${func}' is accessed but never allocated`, where.loc, 'every accessed func needs an `allocate` statement (lemma 2.5)');
  if (d.length !== arity) throw new UserError(`func '${func}' has ${d.length} dimensions but is accessed with ${arity} indices`, where.loc);
  return d;
}

function notePair(ctx: Ctx, p: HolePair): HolePair {
  let m = ctx.cpuPairs.get(p.func);
  if (!m) ctx.cpuPairs.set(p.func, (m = new Map()));
  if (!m.has(pairKey(p))) m.set(pairKey(p), p);
  return p;
}

function memIn(ctx: Ctx, func: string, idx: readonly Expr[], where: Expr | Stmt): QNode[] {
  const d = dimsOf(ctx, func, idx.length, where);
  return idx.map((e, i) => ({ k: 'in', e, pair: { kind: 'mem', func, dim: d[i]! }, rule: 'B-MEM' }));
}

function cpuIn(ctx: Ctx, func: string, ref: RefLabel | undefined, idx: readonly Expr[], where: Expr | Stmt): QNode[] {
  const d = dimsOf(ctx, func, idx.length, where);
  return idx.map((e, i) => ({ k: 'in', e, pair: notePair(ctx, cpuPair(func, d[i]!, ref)), rule: B_CPU }));
}

/**
 * 𝓑_cpu(e): every access anywhere in e lies in its func's allocation and compute bounds, and so do
 * the accesses in its indices. Used for indexing and branching positions (§2.7.1).
 */
function bCpu(ctx: Ctx, e: Expr): QNode[] {
  switch (e.k) {
    case 'access':
      return [...e.args.flatMap((a) => bCpu(ctx, a)), ...memIn(ctx, e.func, e.args, e), ...cpuIn(ctx, e.func, e.ref, e.args, e)];
    case 'op':
      return e.args.flatMap((a) => bCpu(ctx, a));
    default:
      return [];
  }
}

/** 𝓑_mem(e): accesses in value position need only lie in allocation bounds; their indices are 𝓑_cpu. */
function bMem(ctx: Ctx, e: Expr): QNode[] {
  switch (e.k) {
    case 'access':
      return [...e.args.flatMap((a) => bCpu(ctx, a)), ...memIn(ctx, e.func, e.args, e)];
    case 'op':
      return e.args.flatMap((a) => bMem(ctx, a));
    default:
      return [];
  }
}

/** Stages a statement stores to, as (stage, spec) with stage undefined for the final one. */
function storedStages(s: Stmt, func: string): Map<string, RefLabel> {
  const out = new Map<string, RefLabel>();
  visitStmts(s, (x) => {
    if (x.k === 'store' && x.func === func) out.set(`${x.ref.stage ?? 'final'}.${x.ref.spec ?? 0}`, x.ref);
  });
  return out;
}

/**
 * [B-STAGE-COVER] (decision, spec/bounds.md): the compute bounds of stage i lie inside those of
 * stage i−1 of the same specialization, ∀ x ∈ ?cpu f_x^i : x ∈ ?cpu f_x^{i−1}. A point of the
 * compute bounds that stage i does not write keeps stage i−1's value, so that value must be valid.
 */
function stageCover(ctx: Ctx, func: string, ref: RefLabel): QNode | undefined {
  const explicit = ctx.stages.get(func) ?? new Set<number>();
  const prev = ref.stage === undefined ? (explicit.size ? Math.max(...explicit) : undefined) : ref.stage - 1;
  if (prev === undefined || prev < 0) return undefined;
  const spec = ref.spec ? { spec: ref.spec } : {};
  const parts = (ctx.dims.get(func) ?? []).map((dim): QNode => {
    const cur = notePair(ctx, cpuPair(func, dim, ref.stage === undefined ? undefined : ref));
    const before = notePair(ctx, cpuPair(func, dim, { stage: prev, ...spec }));
    const v = `${func}.${dim}`;
    return {
      k: 'forall', v, min: { k: 'hole', hole: pairHole(cur, 'min') }, len: { k: 'hole', hole: pairHole(cur, 'len') },
      body: { k: 'in', e: vr(v), pair: before, rule: 'B-STAGE-COVER' }, rule: 'B-STAGE-COVER',
    };
  });
  return and(parts, 'B-STAGE-COVER');
}

function bStmt(ctx: Ctx, s: Stmt, labelFunc: string | undefined, covered: Set<string>): QNode {
  switch (s.k) {
    case 'nop':
      return T;
    case 'assert':
      return and([...bCpu(ctx, s.cond), { k: 'pred', e: s.cond, rule: 'B-ASSERT' }], 'B-ASSERT');
    case 'seq':
      return bSeq(ctx, s.body, labelFunc, covered);
    case 'allocate': {
      // An allocate outside a sequence binds nothing after it.
      return bSeq(ctx, [s], labelFunc, covered);
    }
    case 'store': {
      const d = dimsOf(ctx, s.func, s.idx.length, s);
      const inside = s.idx.map((e, i) => ({ e, pair: notePair(ctx, cpuPair(s.func, d[i]!, s.ref)) }));
      const cond = inside.length === 0 ? { k: 'const', value: 1 } as Expr : inside.map((x) => inPairExpr(x.e, x.pair)).reduce((a, b) => op('and', a, b));
      const rhs = and(bCpu(ctx, s.value));
      // [B-STORE-CARRIED] a value that reads its own func at another point carries what the stage
      // writes outside its compute bounds into points inside them: its reads are required always.
      const carried = rhs.k !== 'true' && readsOwnFuncElsewhere(s);
      return and(
        [
          ...memIn(ctx, s.func, s.idx, s),
          ...s.idx.flatMap((e) => bCpu(ctx, e)),
          ...bMem(ctx, s.value),
          ...(rhs.k === 'true' ? [] : carried ? [rhs] : [{ k: 'implies', cond, body: rhs, rule: 'B-STORE', inside } as const]),
        ],
        carried ? 'B-STORE-CARRIED' : 'B-STORE',
      );
    }
    case 'if': {
      // Lowering's `if 1 then s` (a stage without predicate) is read as s; a dead branch that is
      // not `nop` is kept, since its holes still need values.
      if (s.cond.k === 'const' && typeof s.cond.value !== 'object' && s.cond.value !== 0 && s.else.k === 'nop') {
        return bStmt(ctx, s.then, labelFunc, covered);
      }
      return and(
        [
          ...bCpu(ctx, s.cond),
          { k: 'implies', cond: s.cond, body: bStmt(ctx, s.then, labelFunc, covered), rule: 'B-IF' },
          { k: 'implies', cond: op('not', s.cond), body: bStmt(ctx, s.else, labelFunc, covered), rule: 'B-IF' },
        ],
        'B-IF',
      );
    }
    case 'for':
      // The extent condition binds the engine only when the extent depends on holes: a hole-free
      // extent (an rdom's, def. 2.9) is the algorithm's, and its failure is def. 2.12's rdom
      // failure, which no completion can prevent (decision [B-FOR] in spec/bounds.md).
      return and(
        [
          ...bCpu(ctx, s.min),
          ...bCpu(ctx, s.len),
          ...(mentionsHole(s.len) ? [{ k: 'pred', e: op('not', op('<', s.len, { k: 'const', value: 0 })), rule: 'B-FOR' } as const] : []),
          { k: 'forall', v: s.var, min: s.min, len: s.len, body: bStmt(ctx, s.body, labelFunc, covered), rule: 'B-FOR' },
        ],
        'B-FOR',
      );
    case 'let':
      return and([...bCpu(ctx, s.value), { k: 'let', v: s.var, e: s.value, body: bStmt(ctx, s.body, labelFunc, covered), rule: 'B-LET' }], 'B-LET');
    case 'label': {
      if (ctx.dims.has(s.name) && labelFunc !== s.name) {
        // label f binds the compute holes of every stage of f; consumers later in the program may
        // mention more of them, so the list is completed once the whole program has been read.
        const pairs: HolePair[] = [];
        ctx.labelPairs.set(s.name, pairs);
        return { k: 'exists', pairs, body: bStmt(ctx, s.body, s.name, new Set()), rule: 'B-LABEL' };
      }
      return bStmt(ctx, s.body, labelFunc, covered);
    }
  }
}

function mentionsHole(e: Expr): boolean {
  return e.k === 'hole' || ((e.k === 'op' || e.k === 'access') && e.args.some(mentionsHole));
}

/** Allocations written with expressions of their own (hand-written programs): their pairs are fixed. */
function fixedAllocations(body: Stmt): Map<string, { min: Expr; len: Expr }> {
  const out = new Map<string, { min: Expr; len: Expr }>();
  const own = (e: Expr, p: HolePair, end: 'min' | 'len') => e.k === 'hole' && holeKey(e.hole) === holeKey(pairHole(p, end));
  visitStmts(body, (s) => {
    if (s.k !== 'allocate') return;
    for (const d of s.dims) {
      const p: HolePair = { kind: 'mem', func: s.func, dim: d.dim };
      if (!own(d.min, p, 'min') || !own(d.len, p, 'len')) out.set(pairKey(p), { min: d.min, len: d.len });
    }
  });
  return out;
}

/**
 * The (min, len) expressions of a pair under a completion: Γ's values for its holes, or the
 * expressions a fixed allocation gives. Undefined when Γ lacks them.
 */
export function pairEnds(q: Query, gamma: ReadonlyMap<string, Expr>, p: HolePair): { min: Expr; len: Expr } | undefined {
  const fixed = q.fixed.get(pairKey(p));
  if (fixed) return fixed;
  const min = gamma.get(holeKey(pairHole(p, 'min')));
  const len = gamma.get(holeKey(pairHole(p, 'len')));
  return min && len ? { min, len } : undefined;
}

/** Does the stored value read the stored func at a point other than (syntactically) the one written? */
function readsOwnFuncElsewhere(s: Extract<Stmt, { k: 'store' }>): boolean {
  let elsewhere = false;
  walkExpr(s.value, (x) => {
    if (x.k === 'access' && x.func === s.func && (x.args.length !== s.idx.length || x.args.some((a, i) => !exprEquals(a, s.idx[i]!)))) elsewhere = true;
  });
  return elsewhere;
}

/** The membership ē ∈ ?ℓ as an expression of the target language (antecedent of [B-STORE]). */
export function inPairExpr(e: Expr, p: HolePair): Expr {
  const min: Expr = { k: 'hole', hole: pairHole(p, 'min') };
  const len: Expr = { k: 'hole', hole: pairHole(p, 'len') };
  return op('and', op('not', op('<', e, min)), op('<', e, op('+', min, len)));
}

/**
 * A sequence: `allocate f` binds ?mem f over the rest of the sequence ([B-ALLOC]); an assertion
 * guards the rest ([B-ASSERT]); inside `label f`, the first element that stores to exactly one
 * stage i of f is preceded by that stage's covering constraint ([B-STAGE-COVER]).
 */
function bSeq(ctx: Ctx, body: readonly Stmt[], labelFunc: string | undefined, covered: Set<string>, tail?: QNode): QNode {
  const parts: QNode[] = [];
  for (let i = 0; i < body.length; i++) {
    const s = body[i]!;
    if (s.k === 'allocate') {
      const rest = bSeq(ctx, body.slice(i + 1), labelFunc, covered, tail);
      const pairs: HolePair[] = s.dims.map((d) => ({ kind: 'mem', func: s.func, dim: d.dim }));
      parts.push(...s.dims.flatMap((d) => [...bCpu(ctx, d.min), ...bCpu(ctx, d.len)]));
      parts.push({ k: 'exists', pairs, body: rest, rule: 'B-ALLOC' });
      return and(parts);
    }
    if (s.k === 'assert' && i + 1 < body.length) {
      parts.push(...bCpu(ctx, s.cond));
      parts.push({ k: 'implies', cond: s.cond, body: bSeq(ctx, body.slice(i + 1), labelFunc, covered, tail), rule: 'B-ASSERT' });
      return and(parts);
    }
    if (labelFunc !== undefined) {
      const st = [...storedStages(s, labelFunc).entries()];
      if (st.length === 1 && !covered.has(st[0]![0])) {
        covered.add(st[0]![0]);
        const c = stageCover(ctx, labelFunc, st[0]![1]);
        if (c) parts.push(c);
      }
    }
    parts.push(bStmt(ctx, s, labelFunc, covered));
  }
  if (tail) parts.push(tail);
  return and(parts);
}

function explicitStages(body: Stmt): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  const note = (f: string, st: number | undefined) => {
    if (st === undefined) return;
    let s = out.get(f);
    if (!s) out.set(f, (s = new Set()));
    s.add(st);
  };
  visitStmts(body, (s) => {
    if (s.k === 'store') note(s.func, s.ref.stage);
  });
  for (const e of stmtExprs(body)) {
    walkExpr(e, (x) => {
      if (x.k === 'access') note(x.func, x.ref?.stage);
      if (x.k === 'hole' && x.hole.kind === 'cpu') note(x.hole.func, x.hole.stage);
    });
  }
  return out;
}

/** [B-PIPELINE] 𝓑(pipeline f(p̄, x̄min, x̄len) : s) = ∀ p̄ : 𝓑(s) ∧ the window lies in ?cpu f. */
export function extractQuery(t: TgtProgram): Query {
  const dims = funcDims(t.body);
  const ctx: Ctx = { dims, stages: explicitStages(t.body), cpuPairs: new Map(), labelPairs: new Map() };
  if (!dims.has(t.output)) {
    throw new UserError(`the output func '${t.output}' is never allocated`, t.loc, 'a lowered program allocates its output func');
  }
  const win = and(
    t.window.map((w): QNode => {
      const v = `${t.output}.${w.dim}`;
      const pair = notePair(ctx, { kind: 'cpu', func: t.output, dim: w.dim });
      return { k: 'forall', v, min: vr(w.min), len: vr(w.len), body: { k: 'in', e: vr(v), pair, rule: 'B-PIPELINE' }, rule: 'B-PIPELINE' };
    }),
    'B-PIPELINE',
  );
  // The window is the last conjunct of the top-level sequence, so that an assertion of the body
  // guards it as it guards everything after it ([B-ASSERT]).
  const body = bSeq(ctx, t.body.k === 'seq' ? t.body.body : [t.body], undefined, new Set(), win);
  for (const [f, pairs] of ctx.labelPairs) pairs.push(...(ctx.cpuPairs.get(f)?.values() ?? []));
  const params = [...t.params, ...t.window.flatMap((w) => [w.min, w.len])];
  // An input's window has non-negative extents (def. 2.1).
  const lens = t.window.map((w) => op('not', op('<', vr(w.len), { k: 'const', value: 0 })));
  const guarded: QNode = lens.length === 0 ? body : { k: 'implies', cond: lens.reduce((a, b) => op('and', a, b)), body, rule: 'B-PIPELINE' };
  const holes = holesOf(t).map((hole) => ({ key: holeKey(hole), hole }));
  return { params, holes, body: guarded, dims, output: t.output, fixed: fixedAllocations(t.body) };
}

// ---------------------------------------------------------------------------------------------
// Printing

const ex = (e: Expr) => printExpr(e, 'tgt');

/** The query, one conjunct per line, indented by nesting; `rules` appends each node's rule ID. */
export function printQuery(q: Query, opts: { rules?: boolean } = {}): string {
  const lines: string[] = [];
  const tag = (n: QNode) => (opts.rules ? `   [${n.rule}]` : '');
  const go = (n: QNode, ind: number): void => {
    const pad = '  '.repeat(ind);
    switch (n.k) {
      case 'true':
        lines.push(`${pad}true${tag(n)}`);
        return;
      case 'pred':
        lines.push(`${pad}${ex(n.e)}${tag(n)}`);
        return;
      case 'in':
        lines.push(`${pad}${ex(n.e)} ∈ ${pairKey(n.pair)}${tag(n)}`);
        return;
      case 'and':
        n.parts.forEach((p, i) => {
          go(p, ind);
          if (i + 1 < n.parts.length) lines[lines.length - 1] += ' ∧';
        });
        return;
      case 'implies':
        lines.push(`${pad}${n.inside ? n.inside.map((x) => `${ex(x.e)} ∈ ${pairKey(x.pair)}`).join(' ∧ ') : ex(n.cond)} ⇒${tag(n)}`);
        go(n.body, ind + 1);
        return;
      case 'forall':
        lines.push(`${pad}∀ ${n.v} ∈ (${ex(n.min)}, ${ex(n.len)}) :${tag(n)}`);
        go(n.body, ind + 1);
        return;
      case 'exists':
        lines.push(`${pad}∃ ${n.pairs.length ? n.pairs.map(pairKey).join(', ') : '(no holes)'} :${tag(n)}`);
        go(n.body, ind + 1);
        return;
      case 'let':
        lines.push(`${pad}let ${n.v} = ${ex(n.e)} in${tag(n)}`);
        go(n.body, ind + 1);
        return;
    }
  };
  lines.push(`∀ ${q.params.length ? q.params.join(', ') : '(no parameters)'} ∈ [−∞, ∞] :`);
  go(q.body, 1);
  return lines.join('\n') + '\n';
}

/** Every hole pair the query mentions (in memberships, binders or expressions), keyed by pairKey. */
export function queryPairs(q: Query): Map<string, HolePair> {
  const out = new Map<string, HolePair>();
  const addE = (e: Expr): void => {
    if (e.k === 'hole') out.set(pairKey(pairOfHole(e.hole)), pairOfHole(e.hole));
    else if (e.k === 'access' || e.k === 'op') e.args.forEach(addE);
  };
  const go = (n: QNode): void => {
    switch (n.k) {
      case 'true':
        return;
      case 'pred':
        return addE(n.e);
      case 'in':
        addE(n.e);
        out.set(pairKey(n.pair), n.pair);
        return;
      case 'and':
        return n.parts.forEach(go);
      case 'implies':
        addE(n.cond);
        return go(n.body);
      case 'forall':
        addE(n.min);
        addE(n.len);
        return go(n.body);
      case 'exists':
        n.pairs.forEach((p) => out.set(pairKey(p), p));
        return go(n.body);
      case 'let':
        addE(n.e);
        return go(n.body);
    }
  };
  go(q.body);
  return out;
}

