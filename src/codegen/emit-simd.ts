// Vector code for loops scheduled `vectorize` (§2.8.6; spec/codegen.md, "Vector loops").
// A vectorize loop is semantically serial. It runs in chunks of W iterations: each chunk computes
// its values lane-wise and stores them only if no lane met an anomaly (possible overflow, an
// error value, an out-of-range point, INT64_MIN div -1); otherwise the chunk is run again by the
// scalar code, which reports the exact failure. Nothing has been stored when the chunk is rerun,
// so the rerun starts from the state the serial loop would have, and both paths agree.
import { type Expr, type OpName, exprEquals, substExpr, walkExpr } from '../expr/ast.js';
import { constOf, simplifyFresh } from '../expr/symbolic.js';
import { isError } from '../expr/value.js';
import type { Stmt } from '../target-semantics/ast.js';
import { mangle } from './abi.js';
import { type FunctionWriter, type Isa, type Step, type VectorItem, type VectorPlan, cLiteral, constExtent, log2Const, pow2Op } from './c-syntax.js';
import { type FuncRanges, innerLoopScopes, laneEnds } from './ranges.js';
import { type Interval, TOP, evalInterval } from '../expr/interval.js';
import { emitProof, worthProving } from './proof.js';
import { AVX512_FEATURES } from './runtime-simd.js';
import { int32End } from './storage.js';

/** The target attribute of each variant's function ('' = the compiler's baseline). */
export const ISA_TARGET: Readonly<Record<Isa, string>> = { avx512: AVX512_FEATURES.join(','), avx2: 'avx2', generic: '' };
const PREFIX: Readonly<Record<Isa, string>> = { avx512: 'rs512', avx2: 'rs256', generic: 'rsg' };
const TYPE: Readonly<Record<Isa, string>> = { avx512: 'rs_v8', avx2: 'rs_v4', generic: 'rs_v4' };
const NARROW: Readonly<Record<Isa, string>> = { avx512: 'rs_h8', avx2: 'rs_h4', generic: 'rs_h4' };
export const LANES: Readonly<Record<Isa, number>> = { avx512: 8, avx2: 4, generic: 4 };

type Loop = Extract<Stmt, { k: 'for' }>;

/** Stores (and inner iterations) one vector chunk may unroll. */
const MAX_ITEMS = 64;

/**
 * How an index varies across lanes: the same in every lane, the loop variable plus a uniform
 * offset (consecutive points: a contiguous load or store), or anything else (gather/scatter).
 */
type Shape = 'uniform' | 'stride1' | 'varying';

function shapeOf(e: Expr, x: string, lets: ReadonlyMap<string, Shape>): Shape {
  switch (e.k) {
    case 'const':
    case 'hole':
      return 'uniform';
    case 'var':
      return e.name === x ? 'stride1' : (lets.get(e.name) ?? 'uniform');
    case 'access':
      return 'varying';
    case 'op': {
      const s = e.args.map((a) => shapeOf(a, x, lets));
      if (s.every((a) => a === 'uniform')) return 'uniform';
      if (e.op === '+' && s.length === 2 && s.includes('uniform') && s.includes('stride1')) return 'stride1';
      if (e.op === '-' && s[0] === 'stride1' && s[1] === 'uniform') return 'stride1';
      return 'varying';
    }
  }
}

/**
 * The body as items, in program order: lets and guards around stores, and inner serial or
 * unrolled loops of constant extent unrolled, their variable bound by a let to `min + k` (the
 * values [FOR-ITER] gives it). False when the body holds anything else.
 */
function expandBody(b: Stmt, prefix: readonly Step[], out: VectorItem[]): boolean {
  switch (b.k) {
    case 'nop':
      return true;
    case 'label':
      return expandBody(b.body, prefix, out);
    case 'let':
      return expandBody(b.body, [...prefix, { k: 'let', var: b.var, value: b.value }], out);
    case 'if':
      return b.else.k === 'nop' && expandBody(b.then, [...prefix, { k: 'guard', cond: b.cond }], out);
    case 'seq':
      return b.body.every((x) => expandBody(x, prefix, out));
    case 'store':
      out.push({ steps: prefix, store: b });
      return out.length <= MAX_ITEMS;
    case 'for': {
      const n = constExtent(b.len);
      if (n === undefined || n > MAX_ITEMS || (b.trav !== 'serial' && b.trav !== 'unroll')) return false;
      for (let k = 0; k < n; k++) {
        const at: Expr = { k: 'op', op: '+', args: [b.min, { k: 'const', value: k }] };
        if (!expandBody(b.body, [...prefix, { k: 'let', var: b.var, value: at }], out)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/** `e` with the lets of `steps` substituted, innermost last: what it denotes at that point. */
function inlineLets(steps: readonly Step[], e: Expr): Expr {
  const sub = new Map<string, Expr>();
  for (const st of steps) if (st.k === 'let') sub.set(st.var, substExpr(st.value, sub));
  return substExpr(e, sub);
}

/** Each expression of an item with the steps in scope where it is evaluated. */
function itemExprs(it: VectorItem): [readonly Step[], Expr][] {
  return [
    ...it.steps.map((st, j): [readonly Step[], Expr] => [it.steps.slice(0, j), st.k === 'let' ? st.value : st.cond]),
    ...[it.store.value, ...it.store.idx].map((e): [readonly Step[], Expr] => [it.steps, e]),
  ];
}

/**
 * `C-VECTOR` applicability. A `vectorize` loop: lets and guards around one store; no error
 * constants or constants beyond 64 bits (those chunks would always fall back); the stored func is
 * read only at the stored point, and then the point moves with the lanes, so no lane reads what
 * another writes. `C-VECTOR-UPDATE`, for a `vectorize` or serial loop: two or more stores, inner
 * loops of constant extent unrolled, all to one point of one func that moves with the lanes in its
 * first dimension and is uniform in the others, which the body reads only at that point. Lanes
 * then touch disjoint points and read nothing the loop writes elsewhere, so running the stores
 * lane-wise, one after the other, leaves what the serial loop leaves. Any other body keeps the
 * scalar loop.
 */
export function vectorPlan(s: Loop, allocated: (func: string) => boolean): VectorPlan | undefined {
  const items: VectorItem[] = [];
  if (!expandBody(s.body, [], items) || items.length === 0) return undefined;
  if (items.length === 1 && s.trav !== 'vectorize') return undefined;
  const func = items[0]!.store.func;
  if (!allocated(func) || items.some((it) => it.store.func !== func)) return undefined;
  if (s.trav === 'vectorize' && planesOf(s, items)) return { items, planes: true };
  const point = items[0]!.store.idx.map((i) => inlineLets(items[0]!.steps, i));
  const atPoint = (scope: readonly Step[], idx: readonly Expr[]) => idx.length === point.length && idx.every((i, d) => exprEquals(inlineLets(scope, i), point[d]!));
  let ok = true;
  let readsSelf = false;
  for (const it of items) {
    if (items.length > 1 && !atPoint(it.steps, it.store.idx)) ok = false;
    for (const [scope, e] of itemExprs(it)) {
      walkExpr(e, (y) => {
        if (y.k === 'const' && (isError(y.value) || cLiteral(y.value) === undefined)) ok = false;
        if (y.k === 'access' && y.func === func) {
          readsSelf = true;
          const same = items.length > 1 ? atPoint(scope, y.args) : y.args.length === it.store.idx.length && y.args.every((a, i) => exprEquals(a, it.store.idx[i]!));
          if (!same) ok = false;
        }
      });
    }
  }
  if (!ok) return undefined;
  if (readsSelf || items.length > 1) {
    for (const it of items) {
      const shapes = letShapes(it.steps, s.var);
      if (shapeOf(it.store.idx[0]!, s.var, shapes) !== 'stride1') return undefined;
      if (items.length > 1 && it.store.idx.slice(1).some((i) => shapeOf(i, s.var, shapes) !== 'uniform')) return undefined;
    }
  }
  return { items };
}

// implements [C-VECTOR-PLANES]
/**
 * Whether the stores of a `vectorize` loop's body (two or more, one func) write points that no two
 * stores can share: each point moves with the lanes in its first coordinate and is uniform in the
 * others, every two stores' points differ in some other coordinate where both are distinct
 * constants, and the body reads nothing of the func. Each lane then writes its own points, no
 * point twice, and reads nothing any store writes, so the stores may run for all lanes one after
 * the other.
 */
function planesOf(s: Loop, items: readonly VectorItem[]): boolean {
  if (items.length < 2) return false;
  const func = items[0]!.store.func;
  const points = items.map((it) => it.store.idx.map((i) => simplifyFresh(inlineLets(it.steps, i))));
  for (const it of items) {
    const shapes = letShapes(it.steps, s.var);
    if (shapeOf(it.store.idx[0]!, s.var, shapes) !== 'stride1' || it.store.idx.slice(1).some((i) => shapeOf(i, s.var, shapes) !== 'uniform')) return false;
    for (const [, e] of itemExprs(it)) {
      let bad = false;
      walkExpr(e, (y) => {
        if ((y.k === 'access' && y.func === func) || (y.k === 'const' && (isError(y.value) || cLiteral(y.value) === undefined))) bad = true;
      });
      if (bad) return false;
    }
  }
  const apart = (a: readonly Expr[], b: readonly Expr[]) =>
    a.length === b.length &&
    a.some((e, d) => {
      const x = constOf(e);
      const y = constOf(b[d]!);
      return d > 0 && x !== undefined && y !== undefined && BigInt(x) !== BigInt(y);
    });
  return points.every((a, k) => points.every((b, j) => j <= k || apart(a, b)));
}

function letShapes(steps: readonly Step[], x: string): Map<string, Shape> {
  const m = new Map<string, Shape>();
  for (const st of steps) if (st.k === 'let') m.set(st.var, shapeOf(st.value, x, m));
  return m;
}

/** The C literal of `e` when it is a constant in (0, 2^63): 64-bit lanes check a product by it exactly. */
function positiveConst(e: Expr): string | undefined {
  return e.k === 'const' && (typeof e.value === 'number' || typeof e.value === 'bigint') && e.value > 0 ? cLiteral(e.value) : undefined;
}

/** Whether `e` is a constant in (0, 2^31): 32-bit lanes divide by it with the compiler's multiply-high. */
function int32Divisor(e: Expr): boolean {
  return e.k === 'const' && typeof e.value === 'number' && e.value > 0 && e.value < 2 ** 31;
}

// implements [C-DIV-POSITIVE]
/**
 * Whether a division's dividend is never negative and its divisor never below 1, whatever the
 * variables (they are taken over [−∞, ∞]; reads over their func's range), and, for 64-bit lanes,
 * the dividend below 2^52, where doubles divide exactly: then Euclidean, truncating and doubles'
 * quotients agree, nothing divides by 0 and no lane is an anomaly.
 */
function positiveOperands(e: Extract<Expr, { k: 'op' }>, ranges: FuncRanges, narrow: boolean): boolean {
  const env = { variable: () => TOP, hole: () => TOP, access: (a: Extract<Expr, { k: 'access' }>) => ranges.get(a.func) ?? TOP };
  const [a, b] = e.args.map((x) => evalInterval(x, env)) as [Interval, Interval];
  const end = (x: Expr | null) => (x === null ? undefined : constOf(x));
  const alo = end(a.lo);
  const ahi = end(a.hi);
  const blo = end(b.lo);
  if (alo === undefined || blo === undefined || BigInt(alo) < 0n || BigInt(blo) < 1n) return false;
  return narrow || (ahi !== undefined && BigInt(ahi) < 2n ** 52n);
}

/** The scalar forms `VectorEmitter.scalar` follows: each gives lane 0's bits of the lane operation. */
const LANE0_OP: Partial<Record<OpName, string>> = { '+': 'rs_wadd', '-': 'rs_wsub', '*': 'rs_wmul', min: 'rs_min', max: 'rs_max' };

/** A value [C-SCALAR-LANES] computes as a scalar: the C of its lane 0, and how its lanes vary. */
interface ScalarLanes {
  readonly lane0: string;
  readonly shape: 'uniform' | 'stride1';
}

/** An index of an access: its lanes, how they vary across lanes, lane 0 as scalar C when known. */
interface Index {
  readonly v: string;
  readonly shape: Shape;
  readonly lane0?: string | undefined;
}

const VOP: Partial<Record<OpName, string>> = {
  '+': 'add', '-': 'sub', '*': 'mul', '<': 'lt', '>': 'gt', '=': 'eq', and: 'and', or: 'or', not: 'not',
  select: 'select', min: 'min', max: 'max',
};

class VectorEmitter {
  readonly p: string;
  /** the prefix of the lane operations: 64-bit (`rs512_…`) or 32-bit (`rs512h_…`) */
  readonly q: string;
  /** the vector type of 64-bit lanes (memory, offsets) and of the lanes' values */
  readonly t: string;
  readonly lane: string;
  readonly w: number;
  readonly shapes: Map<string, Shape>;
  /** `C-VECTOR-UPDATE`: reads of the updated func take this lane vector, the value the chunk last stored there */
  forward: { readonly func: string; readonly value: string } | undefined = undefined;
  /** every lane is an iteration the serial loop runs through the access and no index can be an error */
  trusted = false;
  /** the lets `scalar` computes: the C variable of their lane 0, and how their lanes vary */
  readonly scalarLets = new Map<string, ScalarLanes>();
  constructor(
    readonly em: FunctionWriter,
    readonly isa: Isa,
    readonly loopVar: string,
    readonly lets: ReadonlyMap<string, Shape>,
    readonly narrow: boolean,
    /** shared by a chunk's emitters: whether some lane operation so far may set `an` */
    readonly flags: { an: boolean },
  ) {
    this.p = PREFIX[isa];
    this.q = narrow ? `${PREFIX[isa]}h` : PREFIX[isa];
    this.t = TYPE[isa];
    this.lane = narrow ? NARROW[isa] : TYPE[isa];
    this.w = LANES[isa];
    this.shapes = new Map(lets);
  }

  /** The argument through which an operation reports lanes that overflow or cannot be computed. */
  private checked(): string {
    if (this.narrow) return '';
    this.flags.an = true;
    return ', &an';
  }

  // implements [C-SCALAR-LANES]
  /**
   * `e` as scalar C for its lane 0 (the chunk's first iteration `x0` in place of the lanes), when
   * its lanes are uniform or consecutive. Such values (loop coordinates, index bases, guard
   * bounds) are then computed once as scalars, which the C compiler hoists and strength-reduces
   * across chunks, and a lane vector is only `splat` or `iota` of them. The scalar must give
   * exactly the lane's value: in 32-bit chunks [C-NARROW] proved every lane value inside int32,
   * this one included; in 64-bit chunks only operations [C-PROVED] proved are followed (besides
   * min and max), never one that keeps its overflow check and would flag an anomaly. Only
   * operations with a scalar form in `LANE0_OP`, and never a variable with a tag (its test is the
   * lane form's).
   */
  scalar(e: Expr): ScalarLanes | undefined {
    const shape = shapeOf(e, this.loopVar, this.shapes);
    if (shape === 'varying') return undefined;
    const lane0 = this.lane0(e);
    return lane0 === undefined ? undefined : { lane0, shape };
  }

  private lane0(e: Expr): string | undefined {
    switch (e.k) {
      case 'const':
        return typeof e.value === 'number' || typeof e.value === 'bigint' ? cLiteral(e.value) : undefined;
      case 'var':
        if (e.name === this.loopVar) return 'x0';
        if (this.lets.has(e.name)) return this.scalarLets.get(e.name)?.lane0;
        return this.em.varTag(e.name) === undefined ? `v_${mangle(e.name)}` : undefined;
      case 'op': {
        // div and mod by a constant c > 0 of a uniform value: the exact Euclidean quotient and
        // remainder, which no lane form exceeds (a lane beyond the doubles' exact range would be an
        // anomaly, rerun by scalar code that computes this very value)
        const c = e.op === 'div' || e.op === 'mod' ? positiveConst(e.args[1]!) : undefined;
        if (c !== undefined && !this.em.faults.truncatingDiv) {
          const a = this.lane0(e.args[0]!);
          const k = log2Const(e.args[1]!);
          if (a === undefined) return undefined;
          return k !== undefined ? pow2Op(e.op as 'div' | 'mod', a, k) : `rs_${e.op}(${a}, ${c})`;
        }
        const f = LANE0_OP[e.op];
        // 64-bit lanes follow only operations [C-PROVED] proved, whose lanes wrap without an anomaly
        if (!this.narrow && e.op !== 'min' && e.op !== 'max' && !this.em.proved?.has(e)) return undefined;
        const args = e.args.map((a) => this.lane0(a));
        return f === undefined || args.some((a) => a === undefined) ? undefined : `${f}(${args.join(', ')})`;
      }
      default:
        return undefined;
    }
  }

  /** The lanes of a value `scalar` gives: its lane 0 in every lane, or lane 0 plus the lane number. */
  private lanesOf(s: ScalarLanes): string {
    return `${this.q}_${s.shape === 'uniform' ? 'splat' : 'iota'}(${s.lane0})`;
  }

  /** A lane vector as 64-bit lanes (for offsets, range checks and stores). */
  wide(v: string): string {
    return this.narrow ? `${this.q}_widen(${v})` : v;
  }

  expr(e: Expr): string {
    const { em, q, lane } = this;
    switch (e.k) {
      case 'const':
        return `${q}_splat(${cLiteral(e.value as number | bigint)!})`;
      case 'var':
        if (e.name === this.loopVar) return 'vx';
        if (this.scalarLets.has(e.name)) return this.lanesOf(this.scalarLets.get(e.name)!);
        if (this.lets.has(e.name)) return `w_${mangle(e.name)}`;
        if (em.varTag(e.name) !== undefined) em.line(`ans |= ${em.varTag(e.name)!};`);
        return `${q}_splat(v_${mangle(e.name)})`;
      case 'hole':
        throw new Error('hole in a completed program');
      case 'access': {
        if (this.forward?.func === e.func) return this.forward.value;
        const idx = e.args.map((a) => this.index(a));
        const r = em.temp('vr');
        // Initialized: a lane vector left unset when the buffer is missing would be read by the
        // rest of the chunk (whose result is then discarded), and reading it is undefined in C.
        em.line(`${lane} ${r} = {0};`);
        this.access(e.func, idx, (at) => em.line(`${r} = ${at};`), 'read');
        return r;
      }
      case 'op': {
        const scalar = this.scalar(e);
        if (scalar !== undefined) return this.lanesOf(scalar);
        const args = e.args.map((a) => this.expr(a));
        const r = em.temp('vt');
        // 64-bit lanes accumulate anomalies; proved 32-bit lanes cannot overflow.
        let text: string;
        const k = e.op === 'div' || e.op === 'mod' ? log2Const(e.args[1]!) : undefined;
        if (k !== undefined && !em.faults.truncatingDiv) {
          text = pow2Op(e.op as 'div' | 'mod', args[0]!, k);
        } else if (this.narrow && (e.op === 'div' || e.op === 'mod') && int32Divisor(e.args[1]!) && !em.faults.truncatingDiv) {
          text = `${q}_${e.op}c(${args.join(', ')})`;
        } else if ((e.op === 'div' || e.op === 'mod') && !em.faults.truncatingDiv && positiveOperands(e, em.ranges, this.narrow)) {
          text = `${q}_${e.op}p(${args.join(', ')})`;
        } else if (e.op === 'div' || e.op === 'mod') {
          const f = em.faults.truncatingDiv ? (e.op === 'div' ? 'tdiv' : 'tmod') : e.op;
          text = `${q}_${f}(${args.join(', ')}${this.checked()})`;
        } else if (e.op === '*' && !this.narrow && !em.proved?.has(e) && e.args.some((a) => positiveConst(a) !== undefined)) {
          const k = positiveConst(e.args[1]!) === undefined ? 0 : 1;
          text = `${q}_mulk(${args[1 - k]!}, ${positiveConst(e.args[k]!)!}${this.checked()})`;
        } else if ((e.op === '+' || e.op === '-' || e.op === '*') && !this.narrow && em.proved?.has(e)) {
          text = `${q}_w${VOP[e.op]!}(${args.join(', ')})`;
        } else if (e.op === '+' || e.op === '-' || e.op === '*') text = `${q}_${VOP[e.op]!}(${args.join(', ')}${this.checked()})`;
        else text = `${q}_${VOP[e.op]!}(${args.join(', ')})`;
        em.line(`const ${lane} ${r} = ${text};`);
        return r;
      }
    }
  }

  /** An index of an access: its lanes, how they vary, and lane 0 as scalar C when it has one. */
  index(a: Expr): Index {
    const s = this.scalar(a);
    return s === undefined ? { v: this.expr(a), shape: shapeOf(a, this.loopVar, this.shapes) } : { v: this.lanesOf(s), ...s };
  }

  /**
   * An access of all lanes. Contiguous when dimension 0 moves with the lanes and the others are
   * uniform; the range check then covers the W consecutive points at once. Otherwise each lane's
   * offset is computed and checked, and the access is a gather or scatter. Either way a lane out
   * of range makes the chunk an anomaly and the memory is not touched. `use` receives a read's
   * lanes in the chunk's lane type; a write's `value` is in that type too.
   */
  access(func: string, idx: Index[], use: (at: string) => void, kind: 'read' | 'write', value?: string): void {
    const { em, p, t, w } = this;
    const f = em.func(func);
    const c = f.c;
    // [C-STORAGE]: 32-bit payloads move as 32-bit lanes; the chunk's lanes convert only when their width differs.
    const h = NARROW[this.isa];
    const s32 = f.bits === 32;
    const loaded = (load64: string, load32: string): string =>
      s32 ? (this.narrow ? load32 : `${p}h_widen(${load32})`) : this.narrow ? `__builtin_convertvector(${load64}, ${h})` : load64;
    const stored = (): string => {
      const lanes64 = em.faults.laneOrder ? `${p}_reverse(${this.wide(value!)})` : this.wide(value!);
      if (!s32) return lanes64;
      return this.narrow && !em.faults.laneOrder ? value! : `__builtin_convertvector(${lanes64}, ${h})`;
    };
    idx = idx.map((i) => ({ ...i, v: this.wide(i.v) }));
    const contiguous = idx[0]!.shape === 'stride1' && idx.slice(1).every((i) => i.shape === 'uniform');
    if (contiguous) {
      const lane0 = idx.map((i) => i.lane0 ?? `${i.v}[0]`);
      const ok = em.temp('ok');
      const conds = [`(uint64_t)(${lane0[0]} - (uint64_t)M_${c}_0) <= (uint64_t)L_${c}_0 - ${w} && L_${c}_0 >= ${w}`];
      for (let d = 1; d < idx.length; d++) conds.push(`(uint64_t)(${lane0[d]} - (uint64_t)M_${c}_${d}) < (uint64_t)L_${c}_${d}`);
      if (this.trusted) {
        // Every lane is an iteration the serial loop runs, reading and writing what it would: an
        // unchecked build trusts those accesses (theorem 2.1) in vector code as in scalar code,
        // unless an operation overflowed in some lane, whose index may then point anywhere.
        em.line('#ifdef REFSEM_CHECKED');
        em.line(`const int ${ok} = ${conds.join(' && ')};`);
        em.line('#else');
        em.line(`const int ${ok} = ${this.flags.an ? `!${p}_any(an)` : '1'};`);
        em.line('#endif');
      } else em.line(`const int ${ok} = ${conds.join(' && ')};`);
      em.line(`ans |= !${ok};`);
      const off = em.temp('vo');
      em.line(`const int64_t ${off} = ${ok} ? ${em.offset(f, lane0)} : 0;`);
      if (kind === 'read') {
        use(loaded(`${ok} ? ${p}_loadu(D_${c} + ${off}) : ${p}_splat(0)`, `${ok} ? ${p}_load32(D_${c} + ${off}) : (${h}){0}`));
        if (!em.clean) em.line(`ans |= ${ok} && ${p}_tags_load(T_${c} + ${off});`);
      } else {
        em.open(`if (!${anomalies(this.flags, this.p)}) {`);
        em.line(`${s32 ? `${p}_store32` : `${p}_storeu`}(D_${c} + ${off}, ${stored()});`);
        // [C-CLEAN]: the tags of a buffer the tag-free nest found clean are all 0 already
        if (!em.tagsZero(func)) em.line(`${p}_tags_clear(T_${c} + ${off});`);
        em.close();
      }
      return;
    }
    const out = em.temp('vm');
    em.line(`${t} ${out} = ${idx.map((i, d) => `${p}_outside(${i.v}, M_${c}_${d}, L_${c}_${d})`).join(' | ')};`);
    em.line(`ans |= ${p}_any(${out});`);
    const off = em.temp('vo');
    const terms = idx.map((i, d) => (d === 0 ? `(${i.v} - M_${c}_0)` : `S_${c}_${d} * (${i.v} - M_${c}_${d})`)).join(' + ');
    // Lanes out of range get offset 0 so that the gather stays inside memory; the chunk is rerun.
    em.line(`const ${t} ${off} = (${terms}) & ~${out};`);
    if (kind === 'read') {
      em.open(`if (D_${c}) {`);
      use(loaded(`${p}_gather(D_${c}, ${off})`, `${p}_gather32(D_${c}, ${off})`));
      if (!em.clean) em.line(`ans |= ${p}_tags_gather(T_${c}, ${off});`);
      em.close('} else ans = 1;');
    } else {
      em.open(`if (!${anomalies(this.flags, this.p)}) {`);
      em.line(`${s32 ? `${p}_scatter32` : `${p}_scatter`}(D_${c}, ${off}, ${stored()});`);
      if (!em.tagsZero(func)) em.line(`${p}_tags_clear_scatter(T_${c}, ${off});`);
      em.close();
    }
  }
}

/**
 * `C-VECTOR`: the chunked loop for the emitter's ISA, then the scalar tail (the last len mod W
 * iterations, dropped only by the planted fault dropVectorTail).
 */
export function emitVectorLoop(em: FunctionWriter, plan: VectorPlan, s: Loop, m: string, l: string, inParallel: boolean): void {
  const isa = chunkIsa(em.isa!, s);
  const vi = em.temp('vi');
  em.line(`int64_t ${vi} = 0;`);
  const hoisted = em.narrowFlags.get(s);
  const ends = narrowEnds(plan, s, em.ranges);
  if (hoisted !== undefined || ends !== undefined || em.faults.unprovenNarrowing) {
    let ok: string;
    if (em.faults.unprovenNarrowing) {
      ok = em.temp('n32');
      em.line(`const int ${ok} = 1; /* planted fault: no proof */`);
    } else if (hoisted !== undefined) {
      em.line(`/* [${'C-NARROW'}] 32-bit lanes if the proof at the entry of an outer loop held, else if its own holds here */`);
      if (ends === undefined) ok = hoisted;
      else {
        // [C-NARROW-HOIST]: the outer intervals are wider, so the outer proof may fail where this one holds.
        ok = em.temp('n32');
        em.line(`int ${ok} = ${hoisted};`);
        em.open(`if (RS_UNLIKELY(!${ok})) {`);
        em.line(`${ok} = ${emitProof(em, ends, 'rs_q_fits32', 'n32')};`);
        em.close();
      }
    } else {
      em.line(`/* [C-NARROW] 32-bit lanes if the lanes' value ranges, evaluated here, fit */`);
      ok = emitProof(em, ends!, 'rs_q_fits32', 'n32');
    }
    em.open(`if (${ok}) {`);
    chunks(em, isa, plan, s, m, l, inParallel, vi, true);
    em.close();
    em.open('else {');
    chunks(em, isa, plan, s, m, l, inParallel, vi, false);
    em.close();
  } else chunks(em, isa, plan, s, m, l, inParallel, vi, false);
  if (!em.faults.dropVectorTail) em.scalarIterations(s, `${m} + ${vi}`, `${l} - ${vi}`, inParallel);
}

/** The ends [C-NARROW] checks for a vector loop, its enclosing variables over `outer` (exact when absent). */
function narrowEnds(plan: VectorPlan, s: Loop, ranges: FuncRanges, outer?: ReadonlyMap<string, Interval>): Expr[] | undefined {
  // Each store with its own lets. A read that C-VECTOR-UPDATE forwards from an earlier store is
  // still a value of the func, inside the func's range (which [C-ACCUMULATE] bounds for updates).
  const ends: Expr[] = [];
  for (const it of plan.items) {
    const lets = it.steps.flatMap((st) => (st.k === 'let' ? [st] : []));
    const e = laneEnds(itemExprs(it).map(([, x]) => x), s, lets, ranges, outer);
    if (e === undefined) return undefined;
    ends.push(...e);
  }
  // A constant end outside int32 settles the proof now: the 32-bit chunks would be dead code.
  if (ends.some((e) => constOf(e) !== undefined && !int32End(e))) return undefined;
  return worthProving(ends);
}

/** Per loop, the scopes of the vector loops inside it, and their [C-NARROW] ends from its entry once asked for. */
interface Region {
  readonly scopes: readonly (readonly [Loop, ReadonlyMap<string, Interval>])[];
  readonly ends: Map<Loop, Expr[] | undefined>;
}
const regions = new WeakMap<FuncRanges, WeakMap<Stmt, Region>>();

// implements [C-NARROW-HOIST]
/**
 * `C-NARROW-HOIST`: at the entry of `region`, the 32-bit proof of every vector loop inside it
 * that no enclosing loop has decided yet, with the variables between them over their intervals,
 * so that the proof is evaluated once per entry of `region` rather than at every entry of the
 * vector loop (which, under `vectorize(x, 8)`, is once per chunk). Emission asks every loop from
 * the outermost in, so each vector loop is decided at the outermost loop where its ends are
 * bounded and within the budget; one where none is keeps its own proof. Records the flags in
 * `em.narrowFlags` and returns the loops decided here (their flags go out of scope with `region`).
 * Scopes and ends are found once per loop for all the instruction sets a pipeline is emitted for.
 */
export function hoistNarrowing(em: FunctionWriter, region: Loop): Loop[] {
  if (em.isa === undefined || em.faults.unprovenNarrowing) return [];
  let byLoop = regions.get(em.ranges);
  if (byLoop === undefined) regions.set(em.ranges, (byLoop = new WeakMap()));
  let r = byLoop.get(region);
  if (r === undefined) {
    const scopes: (readonly [Loop, ReadonlyMap<string, Interval>])[] = [];
    for (const [s, scope] of innerLoopScopes(region, em.ranges)) {
      if (s.k === 'for' && (s.trav === 'vectorize' || s.trav === 'serial') && em.plan(s) !== undefined) scopes.push([s, scope]);
    }
    byLoop.set(region, (r = { scopes, ends: new Map() }));
  }
  const decided: Loop[] = [];
  for (const [s, scope] of r.scopes) {
    if (em.narrowFlags.has(s)) continue;
    if (!r.ends.has(s)) r.ends.set(s, narrowEnds(em.plan(s)!, s, em.ranges, scope));
    const ends = r.ends.get(s);
    if (ends === undefined) continue;
    em.line(`/* [C-NARROW-HOIST] for ${s.var}, decided once here */`);
    em.narrowFlags.set(s, emitProof(em, ends, 'rs_q_fits32', 'n32'));
    decided.push(s);
  }
  return decided;
}

/**
 * The helper set of a vector loop: the variant's own, except that an AVX-512 loop whose constant
 * extent is below 8 but at least 4 (a `vectorize(x, 4)`) runs in AVX2's 4 lanes, which every
 * AVX-512 CPU has, instead of leaving every iteration to the scalar tail.
 */
function chunkIsa(isa: Isa, s: Loop): Isa {
  const n = constExtent(s.len);
  return isa === 'avx512' && n !== undefined && n >= LANES.avx2 && n < LANES.avx512 ? 'avx2' : isa;
}

/**
 * Whether no value of the plan can be an error: inside a tag-free nest ([C-CLEAN]), or when it
 * reads no buffer and uses no variable that may hold an error (error constants exclude a plan).
 */
function errorFree(em: FunctionWriter, plan: VectorPlan): boolean {
  if (em.clean) return true;
  return plan.items.every((it) =>
    itemExprs(it).every(([, e]) => {
      let free = true;
      walkExpr(e, (y) => {
        if (y.k === 'access' || (y.k === 'var' && em.varTag(y.name) !== undefined)) free = false;
      });
      return free;
    }),
  );
}

/**
 * The C test of a chunk's anomalies: `ans`, or'ed with the lane mask `an` once some operation may
 * have set it. The C compiler cannot fold a vector test of a mask that stayed zero, so it is left
 * out where no operation can set it (proved 32-bit lanes, wrapping proved operations).
 */
function anomalies(flags: { readonly an: boolean }, p: string): string {
  return flags.an ? `(ans | ${p}_any(an))` : 'ans';
}

/** A guard that is a nonzero constant (a `where` without a condition) holds in every lane. */
function alwaysHolds(cond: Expr): boolean {
  return cond.k === 'const' && !isError(cond.value) && cond.value !== 0 && cond.value !== 0n;
}

/** The chunked loop over whole vectors, with 64-bit or (proved) 32-bit lanes. */
function chunks(em: FunctionWriter, isa: Isa, plan: VectorPlan, s: Loop, m: string, l: string, inParallel: boolean, vi: string, narrow: boolean): void {
  const w = LANES[isa];
  const t = TYPE[isa];
  const lane = narrow ? NARROW[isa] : t;
  const q = narrow ? `${PREFIX[isa]}h` : PREFIX[isa];
  const rule = plan.planes ? 'C-VECTOR-PLANES' : plan.items.length > 1 ? 'C-VECTOR-UPDATE' : 'C-VECTOR';
  const what = plan.planes ? `, ${plan.items.length} stores to distinct points per lane` : plan.items.length > 1 ? `, ${plan.items.length} updates of one point per lane` : '';
  em.line(`/* ${rule}: ${isa}, ${w} lanes of ${narrow ? 'int32' : 'int64'}${what} */`);
  em.open(`for (; ${vi} + ${w} <= ${l}; ${vi} += ${w}) {`);
  em.line(`const int64_t x0 = ${m} + ${vi};`);
  em.line(`${t} an = {0};`);
  em.line('int ans = 0;');
  em.line(`const ${lane} vx = ${q}_iota(x0);`);
  em.line('(void)vx; (void)an;');
  // C-VECTOR-UPDATE: every store but the last leaves its lanes in `vu`, which the next stores'
  // reads of the point take instead of memory; only the last store writes, so a chunk that falls
  // back has changed nothing.
  const last = plan.items.length - 1;
  // A single store's chunk skips the rest of its body once a guard fails in some lane, so what
  // follows a guard runs only for lanes the serial loop runs through it; a sequence of stores
  // forwards values past its guards and trusts its accesses only without guards that can fail.
  const guarded = (it: VectorItem) => it.steps.some((st) => st.k === 'guard' && !alwaysHolds(st.cond));
  const trusted = errorFree(em, plan) && (last === 0 || !plan.items.some(guarded));
  let skips = 0;
  const flags = { an: false };
  // [C-VECTOR-PLANES]: every store writes its own points as soon as no anomaly is known; a later
  // anomaly reruns the chunk's iterations, which write the same values again.
  if (last > 0 && !plan.planes) em.line(`${lane} vu = {0};`);
  plan.items.forEach((it, k) => {
    const ve = new VectorEmitter(em, isa, s.var, letShapes(it.steps, s.var), narrow, flags);
    if (k > 0 && !plan.planes) ve.forward = { func: it.store.func, value: 'vu' };
    ve.trusted = trusted;
    if (last > 0) em.open('{');
    for (const st of it.steps) {
      if (st.k === 'guard' && alwaysHolds(st.cond)) continue;
      // A chunk whose guard is false in some lane (the tail of a guarded split) is left to the
      // scalar code: the serial loop would not evaluate the rest of the body in that lane.
      if (st.k === 'let') {
        const scalar = ve.scalar(st.value);
        if (scalar !== undefined) {
          const lane0 = `l0_${mangle(st.var)}`;
          em.line(`RS_BOUND const int64_t ${lane0} = ${scalar.lane0};`);
          ve.scalarLets.set(st.var, { ...scalar, lane0 });
        } else em.line(`RS_BOUND const ${ve.lane} w_${mangle(st.var)} = ${ve.expr(st.value)};`);
      } else {
        const v = ve.expr(st.cond);
        em.line(narrow ? `ans |= ${ve.q}_anyzero(${v});` : `ans |= ${ve.p}_any((${t})(${v} == 0));`);
        if (last === 0) {
          // lanes whose guard operands overflowed are anomalies before the guard is believed
          em.open(`if (!${anomalies(flags, ve.p)}) {`);
          skips++;
        }
      }
    }
    if (k < last && !plan.planes) {
      em.line(`vu = ${ve.expr(it.store.value)};`);
      em.close();
      return;
    }
    const value = ve.expr(it.store.value);
    const idx = it.store.idx.map((i) => ve.index(i));
    ve.access(it.store.func, idx, () => undefined, 'write', value);
    if (last > 0) em.close();
  });
  for (; skips > 0; skips--) em.close();
  em.open(`if (RS_UNLIKELY(${anomalies(flags, PREFIX[isa])})) {`);
  em.scalarIterations(s, 'x0', String(w), inParallel);
  em.close();
  em.close();
}
