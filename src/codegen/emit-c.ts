// C11 emission from a completed target program (spec/codegen.md). One C function per pipeline;
// every expression becomes a sequence of single-assignment temporaries in the evaluation order of
// fig. 2.8's contexts (left to right, a store's value before its indices), so that the first
// failure a run reports is the one the reference reaches first.
import { type Expr, type OpName, walkExpr } from '../expr/ast.js';
import { printExpr } from '../expr/print.js';
import { isError } from '../expr/value.js';
import { showLoc, UserError } from '../diag.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import { checkTgt } from '../target-semantics/check.js';
import { printHead } from '../target-semantics/print.js';
import { someStmt } from '../target-semantics/walk.js';
import { MAX_DIMS, TAG, entryName, mangle } from './abi.js';
import { ISA_TARGET, emitVectorLoop, hoistNarrowing, vectorPlan } from './emit-simd.js';
import { type CodegenFaults, type FuncInfo, type FunctionWriter, type Isa, type VectorPlan, cLiteral, cString, constExtent, log2Const, payloadType, pow2Op } from './c-syntax.js';
import { RUNTIME_SCALAR } from './runtime.js';
import { simplifyIndices } from './indices.js';
import { RUNTIME_SIMD } from './runtime-simd.js';
import { type FuncRanges, funcRanges, overflowCandidates } from './ranges.js';
import { emitProof, selectProved } from './proof.js';
import { cleanNest } from './clean.js';
import { payloadBits } from './storage.js';
import { SharedValues } from './shared-values.js';


/** `generic` forces the portable vector-extension code (what `auto` falls back to without AVX2). */
export type SimdMode = 'auto' | 'avx2' | 'avx512' | 'generic' | 'none';

export interface EmitOptions {
  /** The pipeline's C name suffix; defaults to the output func's name. */
  readonly name?: string;
  /** Vector code for `vectorize` loops: chosen at run time (auto), forced, or none (scalar loops). */
  readonly simd?: SimdMode;
  readonly faults?: CodegenFaults;
  /** simplify the subscripts of reads and stores first ([C-INDEX]); on unless false */
  readonly simplifyIndices?: boolean;
}


/**
 * [C-CSE]: the head of a statement as comments and failure messages show it, printed once per
 * statement and cut after MAX_HEAD characters. Inferred bounds can print as hundreds of kilobytes
 * (a chain of per-tile stages), which would be most of the C text and of its compile time.
 */
const MAX_HEAD = 200;
const heads = new WeakMap<Stmt, string>();
function headline(s: Stmt): string {
  let h = heads.get(s);
  if (h === undefined) {
    h = printHead(s);
    if (h.length > MAX_HEAD) h = `${h.slice(0, MAX_HEAD)}…`;
    heads.set(s, h);
  }
  return h;
}

/** [C-PROVED]'s selection per loop, made once for all the instruction sets a pipeline is emitted for. */
const selections = new WeakMap<FuncRanges, WeakMap<Stmt, ReturnType<typeof selectProved>>>();
function provedIn(s: Extract<Stmt, { k: 'for' }>, ranges: FuncRanges): ReturnType<typeof selectProved> {
  let byLoop = selections.get(ranges);
  if (byLoop === undefined) selections.set(ranges, (byLoop = new WeakMap()));
  let sel = byLoop.get(s);
  if (sel === undefined) byLoop.set(s, (sel = selectProved(overflowCandidates(s, ranges))));
  return sel;
}

/** A C value with its tag: `tag` undefined means statically an integer (tag 0). */
export interface CVal {
  readonly v: string;
  readonly tag?: string;
}

const BINARY_C: Partial<Record<OpName, string>> = {
  '+': 'rs_add', '-': 'rs_sub', '*': 'rs_mul', div: 'rs_div', mod: 'rs_mod', min: 'rs_min', max: 'rs_max',
};
/** The unchecked forms of the operations [C-PROVED] proves. */
const WRAPPING_C: Partial<Record<OpName, string>> = { '+': 'rs_wadd', '-': 'rs_wsub', '*': 'rs_wmul' };


/**
 * Emits the body of one pipeline function for one instruction set (`isa` undefined: scalar C).
 * Lines are collected with indentation; temporaries are numbered per function.
 */
export class FnEmitter implements FunctionWriter {
  readonly lines: string[] = [];
  private depth = 1;
  private nextTemp = 0;
  readonly funcs: ReadonlyMap<string, FuncInfo>;
  /** Let-bound names whose value may be an error, with the C name of their tag. */
  private letTags = new Map<string, string>();
  /** Inside a loop whose overflow proof ([C-PROVED]) holds: the operations it proved. */
  proved: ReadonlySet<Expr> | undefined;
  /** Inside either variant of a proved loop: inner loops are not proved again. */
  private decided = false;
  /** Inside the tag-free variant of a nest ([C-CLEAN]): reads load no tags. */
  clean = false;
  /** Inside the tag-free variant: the funcs whose buffers the nest's entry found clean. */
  private cleanReads: ReadonlySet<string> = new Set();
  /** Inside either variant of a nest with a [C-CLEAN] decision: inner loops make none. */
  private cleanDecided = false;
  /** Inside a rare variant ([C-FALLBACK-SCALAR]): loops get no vector code. */
  private fallback = false;
  readonly narrowFlags = new Map<Stmt, string>();
  /** Each loop's vector plan, made once: emission, [C-CLEAN] and [C-NARROW] all ask for it. */
  private readonly plans = new Map<Stmt, VectorPlan | undefined>();
  /** [C-CSE]: memory-free expressions already evaluated in a scope still open, by structure. */
  private readonly shared = new SharedValues();

  constructor(
    readonly program: TgtProgram,
    readonly bufsName: string,
    arity: ReadonlyMap<string, number>,
    readonly faults: CodegenFaults,
    readonly isa: Isa | undefined,
    /** value ranges of the funcs' buffers, for proving 32-bit lanes */
    readonly ranges: FuncRanges = new Map(),
    /** the names of the pipeline's variant markers so far, shared by its instruction sets ([C-VARIANT]) */
    readonly variants: string[] = [],
  ) {
    const funcs = new Map<string, FuncInfo>();
    const bits = payloadBits(program, arity.keys(), ranges, faults.unprovenStorage);
    for (const [f, n] of arity) {
      if (n > MAX_DIMS) throw new UserError(`'${f}' has ${n} dimensions; the C backend supports at most ${MAX_DIMS}`, program.loc);
      funcs.set(f, { c: mangle(f), slot: funcs.size, arity: n, bits: bits.get(f)! });
    }
    this.funcs = funcs;
  }

  line(text: string): void {
    this.lines.push('  '.repeat(this.depth) + text);
  }
  open(text: string): void {
    this.line(text);
    this.depth++;
  }
  close(text = '}'): void {
    this.depth--;
    this.shared.leave(this.depth);
    this.line(text);
  }
  /** Declares the C variable of a loop variable or `let`. */
  bind(name: string, value: string): void {
    this.line(`RS_BOUND const int64_t v_${mangle(name)} = ${value};`);
  }
  /** A comment naming the rule (spec/codegen.md) a statement is translated by. */
  rule(id: string, what: string): void {
    this.line(`/* [${id}] ${what.replace(/\*\//g, '* /')} */`);
  }
  temp(prefix = 't'): string {
    return `${prefix}${this.nextTemp++}`;
  }
  /** The tag of a let-bound variable that may hold an error value. */
  varTag(name: string): string | undefined {
    return this.letTags.get(name);
  }
  func(name: string): FuncInfo {
    return this.funcs.get(name)!;
  }
  tagsZero(func: string): boolean {
    return this.clean && this.cleanReads.has(func);
  }
  plan(s: Extract<Stmt, { k: 'for' }>): VectorPlan | undefined {
    if (!this.plans.has(s)) this.plans.set(s, vectorPlan(s, (f) => this.funcs.has(f)));
    return this.plans.get(s);
  }

  /** `C-EXPR`: evaluates `e` into temporaries, returning the value and its tag. */
  expr(e: Expr, site: string): CVal {
    switch (e.k) {
      case 'const': {
        if (isError(e.value)) return { v: 'INT64_C(0)', tag: String(e.value.err === 'rdom' ? TAG.rdom : TAG.mem) };
        const lit = cLiteral(e.value);
        if (lit !== undefined) return { v: lit };
        // The reference holds this constant exactly; C cannot, so reaching it is an overflow.
        const t = this.temp();
        this.line(`int64_t ${t} = 0;`);
        this.line(`rs_overflow('c', 0, 0); /* constant ${e.value} does not fit in 64 bits */`);
        return { v: t };
      }
      case 'var': {
        // A let may bind an error value ([LET] has no premise on it); loop variables and
        // parameters are always integers.
        const tag = this.letTags.get(e.name);
        return tag === undefined ? { v: `v_${mangle(e.name)}` } : { v: `v_${mangle(e.name)}`, tag };
      }
      case 'hole':
        throw new UserError('program still has holes', e.loc ?? this.program.loc);
      case 'access':
        return this.read(e.func, e.args.map((a) => this.expr(a, site)), site);
      case 'op': {
        // [C-CSE]: a pure expression met again in the same scope is the value computed the first time.
        const known = this.shared.get(e);
        if (known !== undefined) return known;
        const args = e.args.map((a) => this.expr(a, site));
        const tags = args.flatMap((a) => (a.tag === undefined ? [] : [a.tag]));
        let tag: string | undefined;
        if (tags.length > 0) {
          tag = this.temp('g');
          this.line(`const uint8_t ${tag} = ${tags.join(' | ')};`);
        }
        const t = this.temp();
        // [C-PROVED]: an operation the loop's range proof covers cannot overflow; it wraps like C's
        // unsigned arithmetic, which costs nothing and is never undefined behaviour.
        // [C-POW2]: div and mod by a constant 2^k are a shift and a mask.
        const k = (e.op === 'div' || e.op === 'mod') && !this.faults.truncatingDiv ? log2Const(e.args[1]!) : undefined;
        const value = this.proved?.has(e)
          ? `${WRAPPING_C[e.op]!}(${args[0]!.v}, ${args[1]!.v})`
          : k !== undefined
            ? pow2Op(e.op as 'div' | 'mod', args[0]!.v, k)
            : this.opText(e.op, args.map((a) => a.v));
        // Def. 2.6: with an error argument the value is the error; the payload is never computed,
        // so garbage can neither overflow nor divide.
        this.line(`const int64_t ${t} = ${tag === undefined ? value : `${tag} ? 0 : ${value}`};`);
        const r = tag === undefined ? { v: t } : { v: t, tag };
        this.shared.set(e, r, this.depth);
        return r;
      }
    }
  }

  opText(o: OpName, a: readonly string[]): string {
    const [x, y, z] = a;
    switch (o) {
      case 'div':
        return `${this.faults.truncatingDiv ? 'rs_tdiv' : 'rs_div'}(${x}, ${y})`;
      case 'mod':
        return `${this.faults.truncatingDiv ? 'rs_tmod' : 'rs_mod'}(${x}, ${y})`;
      case '<':
        return `(int64_t)(${x} < ${y})`;
      case '>':
        return `(int64_t)(${x} > ${y})`;
      case '=':
        return `(int64_t)(${x} == ${y})`;
      case 'and':
        return `(int64_t)((${x} != 0) & (${y} != 0))`;
      case 'or':
        return `(int64_t)((${x} != 0) | (${y} != 0))`;
      case 'not':
        return `(int64_t)(${x} == 0)`;
      case 'select':
        return `(${x} != 0 ? ${y} : ${z})`;
      default:
        return `${BINARY_C[o]!}(${x}, ${y})`;
    }
  }

  /** The flat offset of a point in a buffer: first dimension fastest, terms in dimension order. */
  offset(f: FuncInfo, idx: readonly string[]): string {
    return idx.map((i, d) => (d === 0 ? `(${i} - M_${f.c}_0)` : `S_${f.c}_${d} * (${i} - M_${f.c}_${d})`)).join(' + ');
  }

  /** The point's coordinates in a scratch array, for checks and messages. */
  private point(idx: readonly CVal[]): { p: string; pt: string } {
    const p = this.temp('p');
    this.line(`const int64_t ${p}[${idx.length}] = {${idx.map((i) => i.v).join(', ')}};`);
    let pt = 'NULL';
    if (idx.some((i) => i.tag !== undefined)) {
      pt = this.temp('pg');
      this.line(`const uint8_t ${pt}[${idx.length}] = {${idx.map((i) => i.tag ?? '0').join(', ')}};`);
    }
    return { p, pt };
  }

  /**
   * `C-ACCESS`: the checks of [READ]/[ASSN] before touching memory. An error value in an index is
   * out of bounds by definition (def. 2.13) and is always checked; the range check and the
   * allocation check are compiled in by -DREFSEM_CHECKED (theorem 2.1 makes them redundant for
   * programs that come out of bounds inference).
   */
  private checkAccess(kind: 'RS_OOB_READ' | 'RS_OOB_WRITE', func: string, idx: readonly CVal[], site: string): void {
    const f = this.func(func);
    const tags = idx.flatMap((i) => (i.tag === undefined ? [] : [i.tag]));
    const a = `&${this.bufsName}[${f.slot}]`;
    if (tags.length === 0) {
      // Only checked builds test an index without error values: one block, its point included.
      this.line(`#ifdef REFSEM_CHECKED /* [${'C-ACCESS'}] */`);
      const { p, pt } = this.point(idx);
      this.line(`if (RS_UNLIKELY(!D_${f.c})) rs_fail(RS_UNALLOCATED, "access to '%s' before it is allocated (%s)", ${cString(func)}, ${site});`);
      this.line(`if (RS_UNLIKELY(!rs_inbounds(${a}, ${idx.length}, ${p}))) rs_oob(${kind}, ${cString(func)}, ${site}, ${idx.length}, ${p}, ${pt}, ${a});`);
      this.line('#endif');
      return;
    }
    const { p, pt } = this.point(idx);
    this.line(`#ifdef REFSEM_CHECKED /* [${'C-ACCESS'}] */`);
    this.line(`if (RS_UNLIKELY(!D_${f.c})) rs_fail(RS_UNALLOCATED, "access to '%s' before it is allocated (%s)", ${cString(func)}, ${site});`);
    this.line('#endif');
    if (tags.length > 0) this.line(`if (RS_UNLIKELY(${tags.join(' | ')})) rs_oob(${kind}, ${cString(func)}, ${site}, ${idx.length}, ${p}, ${pt}, ${a});`);
    this.line('#ifdef REFSEM_CHECKED');
    this.line(`if (RS_UNLIKELY(!rs_inbounds(${a}, ${idx.length}, ${p}))) rs_oob(${kind}, ${cString(func)}, ${site}, ${idx.length}, ${p}, ${pt}, ${a});`);
    this.line('#endif');
    this.line(`(void)${p};`);
  }

  read(func: string, idx: readonly CVal[], site: string): CVal {
    const f = this.func(func);
    this.checkAccess('RS_OOB_READ', func, idx, site);
    const off = this.temp('o');
    this.line(`const int64_t ${off} = ${this.offset(f, idx.map((i) => i.v))};`);
    const t = this.temp();
    this.line(`const int64_t ${t} = D_${f.c}[${off}];`);
    if (this.clean) return { v: t };
    const g = this.temp('g');
    this.line(`const uint8_t ${g} = T_${f.c}[${off}];`);
    return { v: t, tag: g };
  }

  /** The site of a statement as a C string literal, for failure messages. */
  site(s: Stmt): string {
    return cString(`${headline(s)}${s.loc ? ` at ${showLoc(s.loc)}` : ''}`);
  }

  /** An error value where control needs an integer is its own stuck state. */
  control(v: CVal, what: string, site: string): void {
    if (v.tag !== undefined) {
      this.line(`if (RS_UNLIKELY(${v.tag})) rs_fail(RS_ERROR_IN_CONTROL, "error value as %s (%s)", ${cString(what)}, ${site});`);
    }
  }

  stmt(s: Stmt, inParallel: boolean): void {
    const site = this.site(s);
    switch (s.k) {
      case 'nop':
        return;
      case 'seq':
        for (const b of s.body) this.stmt(b, inParallel);
        return;
      case 'label':
        this.line(`/* label ${s.name.replace(/\*\//g, '* /')} */`);
        this.stmt(s.body, inParallel);
        return;
      case 'assert': {
        this.rule('C-ASSERT', headline(s));
        const c = this.expr(s.cond, site);
        this.control(c, 'assert condition', site);
        this.line(
          `if (RS_UNLIKELY(${c.v} == 0)) rs_fail(RS_ASSERT, "assertion failed: %s (%s)", ${cString(printExpr(s.cond, 'tgt'))}, ${site});`,
        );
        return;
      }
      case 'let': {
        this.rule('C-LET', headline(s));
        const v = this.expr(s.value, site);
        this.open('{');
        this.bind(s.var, v.v);
        if (v.tag !== undefined) {
          this.line(`RS_BOUND const uint8_t g_${mangle(s.var)} = ${v.tag};`);
          this.letTags.set(s.var, `g_${mangle(s.var)}`);
        } else this.letTags.delete(s.var);
        this.stmt(s.body, inParallel);
        this.close();
        return;
      }
      case 'if': {
        this.rule('C-IF', headline(s));
        const c = this.expr(s.cond, site);
        this.control(c, 'if condition', site);
        this.open(`if (${c.v} != 0) {`);
        this.stmt(s.then, inParallel);
        if (s.else.k === 'nop') this.close();
        else {
          this.close('} else {');
          this.depth++;
          this.stmt(s.else, inParallel);
          this.close();
        }
        return;
      }
      case 'allocate':
        return this.allocate(s, site);
      case 'store':
        return this.store(s, site);
      case 'for':
        return this.loop(s, site, inParallel);
    }
  }

  /** `C-ALLOC` ([ALLOC]): bounds left to right, then error and negative-extent checks, in the reference's order. */
  private allocate(s: Extract<Stmt, { k: 'allocate' }>, site: string): void {
    this.rule('C-ALLOC', headline(s));
    const f = this.func(s.func);
    const bounds = s.dims.map((d) => [this.expr(d.min, site), this.expr(d.len, site)] as const);
    s.dims.forEach((d, i) => {
      this.control(bounds[i]![0], `allocation min of ${s.func}.${d.dim}`, site);
      this.control(bounds[i]![1], `allocation extent of ${s.func}.${d.dim}`, site);
    });
    s.dims.forEach((d, i) => {
      const len = bounds[i]![1].v;
      this.line(
        `if (RS_UNLIKELY(${len} < 0)) rs_fail(RS_NEGATIVE_EXTENT, "negative extent %lld of %s (%s)", (long long)${len}, ${cString(`${s.func}.${d.dim}`)}, ${site});`,
      );
    });
    const mins = this.temp('am');
    const lens = this.temp('al');
    this.line(`const int64_t ${mins}[${s.dims.length}] = {${bounds.map((b) => b[0].v).join(', ')}};`);
    this.line(`const int64_t ${lens}[${s.dims.length}] = {${bounds.map((b) => b[1].v).join(', ')}};`);
    this.line(`rs_allocate(&${this.bufsName}[${f.slot}], ${cString(s.func)}, ${s.dims.length}, ${mins}, ${lens}, sizeof(${payloadType(f)}));`);
    this.line(`D_${f.c} = (${payloadType(f)} *)${this.bufsName}[${f.slot}].data;`);
    this.line(`T_${f.c} = ${this.bufsName}[${f.slot}].tag;`);
    for (let d = 0; d < s.dims.length; d++) {
      this.line(`M_${f.c}_${d} = ${mins}[${d}]; L_${f.c}_${d} = ${lens}[${d}];`);
      if (d > 0) this.line(`S_${f.c}_${d} = ${d > 1 ? `S_${f.c}_${d - 1} * ` : ''}${lens}[${d - 1}];`);
    }
  }

  /** `C-STORE` ([ASSN]): the value first, then the indices (fig. 2.8's context `a ← E` before `E ← c`). */
  private store(s: Extract<Stmt, { k: 'store' }>, site: string): void {
    this.rule('C-STORE', headline(s));
    const f = this.func(s.func);
    const v = this.expr(s.value, site);
    const idx = s.idx.map((i) => this.expr(i, site));
    this.checkAccess('RS_OOB_WRITE', s.func, idx, site);
    const off = this.temp('o');
    this.line(`const int64_t ${off} = ${this.offset(f, idx.map((i) => i.v))};`);
    // [C-STORAGE]: a 32-bit payload holds every integer the func's range allows; an error's payload is never read.
    this.line(`D_${f.c}[${off}] = ${f.bits === 32 ? `(int32_t)${v.v}` : v.v};`);
    // [C-CLEAN]: a tag-free nest leaves the tags of a buffer it found clean as they are, all 0
    if (!this.tagsZero(s.func)) this.line(`T_${f.c}[${off}] = ${v.tag ?? '0'};`);
    // [C-CLEAN]: an error written into a buffer ends its flag (relaxed: parallel iterations may
    // store). Scalar builds have no tag-free nests, so nothing reads the flags there.
    if (v.tag !== undefined && this.isa !== undefined) this.line(`if (RS_UNLIKELY(${v.tag})) __atomic_store_n(&${this.bufsName}[${f.slot}].clean, 0, __ATOMIC_RELAXED);`);
  }

  /**
   * `C-FOR` ([FOR-ITER], [FOR-STOP]): min and extent once, the checks of the reference, and an
   * overflow check on the last iteration's value so that `x = min + i` never overflows; then the
   * 32-bit decisions of the vector loops inside that no enclosing loop could make
   * ([C-NARROW-HOIST]), and the iterations.
   */
  private loop(s: Extract<Stmt, { k: 'for' }>, site: string, inParallel: boolean): void {
    this.rule('C-FOR', headline(s));
    const m = this.expr(s.min, site);
    const l = this.expr(s.len, site);
    this.control(m, `loop min of ${s.var}`, site);
    this.control(l, `loop extent of ${s.var}`, site);
    this.line(
      `if (RS_UNLIKELY(${l.v} < 0)) rs_fail(RS_NEGATIVE_EXTENT, "loop %s has negative extent %lld (%s)", ${cString(s.var)}, (long long)${l.v}, ${site});`,
    );
    this.line(`if (${l.v} > 0) (void)rs_add(${m.v}, ${l.v} - 1);`);
    const hoisted = this.vectorCode() ? hoistNarrowing(this, s) : [];
    this.decide(s, m.v, l.v, inParallel);
    // their flags are in scope only here
    for (const v of hoisted) this.narrowFlags.delete(v);
  }

  /**
   * The iterations of a loop whose min and extent are checked, under the decision of `C-PROVED`
   * when no enclosing loop has made it: the proved variant when the ranges of its operations fit,
   * else the checked one.
   */
  private decide(s: Extract<Stmt, { k: 'for' }>, m: string, l: string, inParallel: boolean): void {
    // Only the proved variant of a loop gets tag-free nests: the checked one is the rare path.
    if (this.decided) return this.proved !== undefined ? this.nest(s, m, l, inParallel) : this.iterate(s, m, l, inParallel);
    const { safe, ends } = this.faults.unprovenArithmetic ? { safe: new Set(overflowCandidates(s, this.ranges).keys()), ends: [] } : provedIn(s, this.ranges);
    if (safe.size === 0) return this.nest(s, m, l, inParallel);
    this.rule('C-PROVED', `${safe.size} operations without overflow checks if their ranges, evaluated here, fit in 64 bits`);
    const ok = this.faults.unprovenArithmetic ? '1 /* planted fault: no proof */' : emitProof(this, ends, 'rs_q_fits64', 'nv');
    this.decided = true;
    this.open(`if (${ok}) {`);
    this.ran(`${s.var} proved`);
    this.proved = safe;
    this.nest(s, m, l, inParallel);
    this.proved = undefined;
    this.close('} else {');
    this.depth++;
    this.ran(`${s.var} checked`);
    this.rareVariant(() => this.iterate(s, m, l, inParallel));
    this.close();
    this.decided = false;
  }

  // implements [C-FALLBACK-SCALAR]
  /**
   * `C-FALLBACK-SCALAR`: emits a rare variant — the checked iterations of a proved loop
   * ([C-PROVED]), the tagged copy of a nest that has a tag-free one ([C-CLEAN]) — with scalar
   * loops only: no input of an ordinary run takes it, and its vector chunks (64- and 32-bit, with
   * their tails) were most of a vector build's C and of its compile time.
   */
  private rareVariant(emit: () => void): void {
    const outer = this.fallback;
    this.fallback = true;
    emit();
    this.fallback = outer;
  }

  /** Whether loops here get vector code: in a vector variant, outside its rare variants. */
  private vectorCode(): boolean {
    return this.isa !== undefined && !this.fallback;
  }

  /**
   * implements [C-VARIANT]: marks the start of one side of a decision, so that a run tells which
   * sides it took. The first 64 markers of a pipeline are numbered; a pipeline with more leaves
   * the rest unmarked (they are reported as not tracked).
   */
  ran(name: string): void {
    if (this.variants.length >= MAX_VARIANTS) return;
    const named = this.isa === undefined ? name : `${this.isa}: ${name}`;
    this.line(`RS_RAN(${this.variants.length}); /* ${named} */`);
    this.variants.push(named);
  }

  /**
   * `C-CLEAN`: a nest that may run without tags ([clean.ts](./clean.ts)) tests at its entry that
   * every buffer it reads is clean and every tagged variable it uses holds an integer; then its
   * tag-free variant runs, else the tagged one. Not inside a parallel region, where other
   * iterations store while a scan would read.
   */
  private nest(s: Extract<Stmt, { k: 'for' }>, m: string, l: string, inParallel: boolean): void {
    const n = this.cleanDecided || inParallel ? undefined : cleanNest(s, (v) => this.letTags.has(v));
    if (n === undefined || !(this.hasVectorCode(s) || this.updatesInPlace(s))) return this.iterate(s, m, l, inParallel);
    this.rule('C-CLEAN', `tag-free if ${n.reads.join(', ')} hold only integers`);
    const test = [
      ...n.reads.map((f) => `rs_clean(&${this.bufsName}[${this.func(f).slot}])`),
      ...n.taggedVars.map((v) => `!${this.letTags.get(v)!}`),
    ];
    this.cleanDecided = true;
    this.open(`if (RS_LIKELY(${test.join(' & ')})) {`);
    // The tagged variables the test requires to be integers carry no tag inside.
    const tags = this.letTags;
    this.letTags = new Map([...tags].filter(([v]) => !n.taggedVars.includes(v)));
    this.ran(`${s.var} tag-free`);
    this.clean = true;
    this.cleanReads = new Set(n.reads);
    this.iterate(s, m, l, inParallel);
    this.clean = false;
    this.cleanReads = new Set();
    this.letTags = tags;
    this.close('} else {');
    this.depth++;
    this.ran(`${s.var} tagged`);
    this.rareVariant(() => this.iterate(s, m, l, inParallel));
    this.close();
    this.cleanDecided = false;
  }

  /**
   * Whether the nest of `s` runs vector code in this variant ([C-VECTOR], [C-VECTOR-UPDATE]). Only
   * such nests get a tag-free variant: a tag there makes whole chunks fall back, and the copy
   * costs compile time that scalar nests, which gain less, would not repay (spec/codegen.md).
   */
  private hasVectorCode(s: Extract<Stmt, { k: 'for' }>): boolean {
    if (this.isa === undefined) return false;
    return someStmt(s, (x) => x.k === 'for' && (x.trav === 'vectorize' || x.trav === 'serial') && this.plan(x) !== undefined);
  }

  /**
   * Whether, in a vector variant, the nest of `s` stores into a func at points its values read
   * from that func (a scatter, a scan, a sum): each such store's tag goes through a load, an `|`
   * and a store, which the tag-free variant saves whether or not the nest has vector code.
   */
  private updatesInPlace(s: Extract<Stmt, { k: 'for' }>): boolean {
    if (this.isa === undefined) return false;
    return someStmt(s, (x) => {
      if (x.k !== 'store') return false;
      let reads = false;
      walkExpr(x.value, (e) => {
        if (e.k === 'access' && e.func === x.func) reads = true;
      });
      return reads;
    });
  }

  /** The iterations of a loop whose min and extent are evaluated and checked: vector, parallel, unrolled or plain. */
  private iterate(s: Extract<Stmt, { k: 'for' }>, m: string, l: string, inParallel: boolean): void {
    const i = this.temp('i');
    // Serial loops too: C-VECTOR-UPDATE runs a sequence of updates of one point lane-wise.
    if ((s.trav === 'vectorize' || s.trav === 'serial') && this.vectorCode()) {
      const plan = this.plan(s);
      if (plan !== undefined) return emitVectorLoop(this, plan, s, m, l, inParallel);
    }
    if (s.trav === 'parallel' && !inParallel && !someStmt(s.body, (x) => x.k === 'allocate')) return this.parallelLoop(s, m, l, i);
    if (s.trav === 'unroll') {
      const n = constExtent(s.len);
      if (n !== undefined && n <= 16) {
        // The body once per iteration; the extent is a constant after bounds inference.
        this.rule('C-UNROLL', `${n} copies of the body`);
        for (let k = 0; k < n; k++) {
          this.open('{');
          this.bind(s.var, `${m} + ${k}`);
          this.stmt(s.body, inParallel);
          this.close();
        }
        return;
      }
      this.line('#pragma GCC unroll 8');
    }
    this.open(`for (int64_t ${i} = 0; ${i} < ${l}; ${i}++) {`);
    this.bind(s.var, `${m} + ${i}`);
    this.stmt(s.body, inParallel);
    this.close();
  }

  /** A scalar iteration of a loop body for iterations [from, from+count), used by vector fallbacks. */
  scalarIterations(s: Extract<Stmt, { k: 'for' }>, from: string, count: string, inParallel: boolean): void {
    const i = this.temp('i');
    this.open(`for (int64_t ${i} = 0; ${i} < ${count}; ${i}++) {`);
    this.bind(s.var, `${from} + ${i}`);
    this.stmt(s.body, inParallel);
    this.close();
  }

  /**
   * `C-PARALLEL`: an OpenMP loop when compiled with -fopenmp, else the serial loop. A failure in
   * one iteration unwinds to that iteration (longjmp never leaves the parallel region); the other
   * iterations stop early and the failure is re-raised after the region.
   */
  private parallelLoop(s: Extract<Stmt, { k: 'for' }>, m: string, l: string, i: string): void {
    this.rule('C-PARALLEL', `${s.var}: OpenMP when available`);
    this.line('#ifdef _OPENMP');
    this.line('#pragma omp parallel for schedule(static)');
    this.open(`for (int64_t ${i} = 0; ${i} < ${l}; ${i}++) {`);
    this.line('if (atomic_load_explicit(&rs_failed, memory_order_relaxed)) continue;');
    this.line('jmp_buf rs_here;');
    this.line('jmp_buf *const rs_outer = rs_jb;');
    this.line('rs_jb = &rs_here;');
    this.open('if (setjmp(rs_here) == 0) {');
    this.bind(s.var, `${m} + ${i}`);
    this.stmt(s.body, true);
    this.close();
    this.line('rs_jb = rs_outer;');
    this.close();
    this.line('if (atomic_load(&rs_failed)) rs_unwind();');
    this.line('#else');
    this.open(`for (int64_t ${i} = 0; ${i} < ${l}; ${i}++) {`);
    this.bind(s.var, `${m} + ${i}`);
    this.stmt(s.body, false);
    this.close();
    this.line('#endif');
  }
}

/** A pipeline's C text without the runtime, plus what a driver needs to call it. */
/** Variant markers a pipeline numbers: the bits of the runtime's `rs_ran`. */
const MAX_VARIANTS = 64;

export interface EmittedPipeline {
  readonly name: string; // the C entry symbol
  readonly text: string;
  readonly nparams: number;
  readonly ndims: number;
  readonly simd: boolean; // whether any loop compiled to vector code
}

/** `C-PIPELINE`: the function for one instruction set (the entry itself when `isa` is undefined). */
function emitVariant(t: TgtProgram, arity: ReadonlyMap<string, number>, ranges: FuncRanges, fname: string, bufs: string, faults: CodegenFaults, isa: Isa | undefined, isStatic: boolean, variants: string[]): { text: string; simd: boolean } {
  const em = new FnEmitter(t, bufs, arity, faults, isa, ranges, variants);
  em.stmt(t.body, false);
  const head: string[] = [];
  const attr = isa === undefined ? '' : `__attribute__((${ISA_TARGET[isa] ? `target(${cString(ISA_TARGET[isa])}), ` : ''}noinline)) `;
  head.push(`${isStatic ? 'static ' : ''}${attr}void ${fname}(const int64_t *params, const int64_t *window, refsem_result *res) {`);
  t.params.forEach((p, i) => head.push(`  RS_BOUND const int64_t v_${mangle(p)} = params[${i}];`));
  t.window.forEach((w, i) => {
    head.push(`  RS_BOUND const int64_t v_${mangle(w.min)} = window[${2 * i}];`);
    head.push(`  RS_BOUND const int64_t v_${mangle(w.len)} = window[${2 * i + 1}];`);
  });
  head.push(`  /* [${'C-ABI'}] params in header order; window = min, len per output dimension */`);
  head.push(`  /* [${'C-EXPR'}] every expression is a sequence of single-assignment temporaries, left to right */`);
  head.push('  (void)params; (void)window;');
  for (const f of em.funcs.values()) {
    // Distinct allocations never overlap, so every buffer pointer is restrict (§5.1.2).
    head.push(`  ${payloadType(f)} *restrict D_${f.c} = NULL; uint8_t *restrict T_${f.c} = NULL;`);
    for (let d = 0; d < f.arity; d++) head.push(`  int64_t M_${f.c}_${d} = 0, L_${f.c}_${d} = 0;${d > 0 ? ` int64_t S_${f.c}_${d} = 0;` : ''}`);
    head.push(`  (void)D_${f.c}; (void)T_${f.c};${Array.from({ length: f.arity }, (_, d) => ` (void)M_${f.c}_${d}; (void)L_${f.c}_${d};${d > 0 ? ` (void)S_${f.c}_${d};` : ''}`).join('')}`);
  }
  head.push('  memset(res, 0, sizeof *res);');
  head.push('  rs_res = res;');
  head.push('  atomic_store(&rs_failed, 0);');
  head.push('  jmp_buf rs_top;');
  head.push('  rs_jb = &rs_top;');
  head.push('  if (setjmp(rs_top) != 0) {');
  head.push(`    for (int k = 0; k < ${em.funcs.size}; k++) rs_free(&${bufs}[k]);`);
  head.push('    return;');
  head.push('  }');
  const out = em.funcs.get(t.output);
  const tail: string[] = [];
  if (out === undefined) {
    tail.push(`  rs_fail(RS_UNALLOCATED, "the output '%s' is never allocated", ${cString(t.output)});`);
  } else {
    tail.push(`  if (!D_${out.c}) rs_fail(RS_UNALLOCATED, "the output '%s' was not allocated when the pipeline ended", ${cString(t.output)});`);
    tail.push(`  rs_alloc *o = &${bufs}[${out.slot}];`);
    tail.push('  res->ndims = o->ndims;');
    tail.push('  for (int d = 0; d < o->ndims; d++) { res->min[d] = o->min[d]; res->len[d] = o->len[d]; }');
    tail.push(`  res->tag = rs_tags_out(o, ${cString(t.output)});`);
    tail.push('  res->data = (int64_t *)o->data;');
    tail.push('  o->data = NULL; o->tag = NULL;');
  }
  tail.push(`  for (int k = 0; k < ${em.funcs.size}; k++) rs_free(&${bufs}[k]);`);
  tail.push('}');
  return { text: [...head, ...em.lines, ...tail].join('\n'), simd: isa !== undefined };
}

/** `C-PIPELINE` for all requested instruction sets, with run-time dispatch (`C-DISPATCH`). */
export function emitPipeline(program: TgtProgram, opts: EmitOptions = {}): EmittedPipeline {
  const { arity } = checkTgt(program);
  const t = opts.simplifyIndices === false ? program : simplifyIndices(program);
  const name = entryName(opts.name ?? t.output);
  const faults = opts.faults ?? {};
  const bufs = `rsb_${name}`;
  const nfuncs = Math.max(1, arity.size);
  const parts: string[] = [`static rs_alloc ${bufs}[${nfuncs}];`];
  const simd = opts.simd ?? 'auto';
  const vector = simd !== 'none' && someStmt(t.body, (x) => x.k === 'for' && x.trav === 'vectorize');
  // The funcs' value ranges ([C-NARROW], [C-PROVED], [C-STORAGE]) are the same for every variant.
  const ranges = funcRanges(t);
  const variants: string[] = [];
  if (!vector) {
    parts.push(emitVariant(t, arity, ranges, name, bufs, faults, undefined, false, variants).text);
  } else {
    const isas: Isa[] = simd === 'auto' ? ['avx512', 'avx2', 'generic'] : [simd];
    for (const isa of isas) {
      const v = emitVariant(t, arity, ranges, `${name}__${isa}`, bufs, faults, isa, true, variants).text;
      parts.push(isa === 'generic' ? v : `#if RS_X86\n${v}\n#endif`);
    }
    const body: string[] = [`/* [${'C-DISPATCH'}] the widest vector code this CPU runs */`, `void ${name}(const int64_t *params, const int64_t *window, refsem_result *res) {`];
    for (const isa of isas) {
      // the instruction set that ran is a variant too ([C-VARIANT])
      const k = variants.length < MAX_VARIANTS ? variants.push(`${isa} code`) - 1 : undefined;
      const mark = k === undefined ? '' : `RS_RAN(${k}); /* ${isa} code */ `;
      const call = `  if (rs_cpu_has_${isa}()) { ${mark}${name}__${isa}(params, window, res); return; }`;
      body.push(isa === 'generic' ? call : `#if RS_X86\n${call}\n#endif`);
    }
    body.push('  memset(res, 0, sizeof *res);');
    body.push('  res->status = RS_UNSUPPORTED_ISA;');
    body.push(`  snprintf(res->message, sizeof res->message, "this CPU cannot run the %s vector code", ${cString(simd)});`);
    body.push('}');
    parts.push(body.join('\n'));
  }
  return { name, text: parts.join('\n\n'), nparams: t.params.length, ndims: t.window.length, simd: vector };
}

/** The runtime header: scalar helpers, plus the vector helper sets when any pipeline needs them. */
export function runtimeText(simd: boolean): string {
  // Guarded, so that a file holding `refsem codegen`'s output (runtime included) can be compiled
  // after the batch's own runtime: `validate --impl` takes the emitted code, edited or not.
  const scalar = `#ifndef REFSEM_RUNTIME\n#define REFSEM_RUNTIME\n${RUNTIME_SCALAR}\n#endif /* REFSEM_RUNTIME */\n`;
  return simd ? `${scalar}#ifndef REFSEM_RUNTIME_SIMD\n#define REFSEM_RUNTIME_SIMD\n${RUNTIME_SIMD}\n#endif /* REFSEM_RUNTIME_SIMD */\n` : scalar;
}

/** `emitC`: a complete translation unit for one pipeline (runtime + function; no main). */
export function emitC(t: TgtProgram, opts: EmitOptions = {}): string {
  const p = emitPipeline(t, opts);
  return `/* generated by refsem from pipeline ${t.output} (spec/codegen.md) */\n${runtimeText(p.simd)}\n${p.text}\n`;
}
