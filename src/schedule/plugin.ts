// The directive plug-in API (spec/schedule.md, "Writing a directive"). Every directive — built-in
// or user-defined — is a plain object: its concrete syntax (declarative `params`, or `parse` +
// `print`), its phase (fig. 2.11), `validate`, `apply` (a pure function Tgt? → Tgt?, §2.8) and
// `generate` (random valid arguments for a given program, used by the fuzzers). User modules are
// plain .mjs files that import nothing: their default export is the object, an array of them, or
// a function that receives `DirectiveApi` and returns them.
import { type Loc, UserError } from '../diag.js';
import type { Obligation } from '../effects/obligation.js';
import type { Expr, OpName } from '../expr/ast.js';
import type { Cursor } from '../expr/parse.js';
import type { Int, Value } from '../expr/value.js';
import type { Stmt, TgtProgram } from '../target-semantics/ast.js';
import type { LoopName } from '../target-semantics/loop-name.js';
import type { ForStmt, LoopInfo, StmtPath } from '../target-semantics/walk.js';
import type { Rng } from '../rng.js';

/** The phases of fig. 2.11, in the order a schedule must list them (spec/schedule.md, [SCHED-PHASE]). */
export const PHASES = ['specialization', 'loops', 'compute', 'storage', 'bounds'] as const;
export type Phase = (typeof PHASES)[number];

/**
 * Kinds of directive arguments. `loop` is a loop name as written (`f.x`, `f.s0.x`, `f.s1.k2.r`),
 * `func` a func name, `dim` a `func.dimension` pair, `name` a plain identifier (a new loop
 * variable), `expr` an expression, `int` an integer literal, `choice` one of fixed words; the
 * plural kinds are non-empty comma-separated lists.
 */
export type ParamType =
  | 'loop' | 'func' | 'dim' | 'name' | 'expr' | 'int'
  | 'loops' | 'names' | 'exprs'
  | { readonly choice: readonly string[] };

export interface ParamSpec {
  readonly name: string;
  readonly type: ParamType;
  /** A word written before the argument (`by 3`, `at f.xo`). */
  readonly key?: string;
  /** An optional argument must have a key; it is present iff its key is. */
  readonly optional?: boolean;
}

/** Argument values: plain data, so that calls print, compare and serialize. */
export type ArgValue = string | Int | Expr | readonly string[] | readonly Expr[];
/** A directive's arguments: a record keyed by param name (each directive declares its own type). */
export type Args = object;
/** Arguments seen through their param names (printing, parsing). */
export type ArgRecord = Readonly<Record<string, ArgValue | undefined>>;

/**
 * What a directive's functions get besides the program and the arguments. `reject` throws a
 * rejection that the driver reports with the directive's file:line:col and text.
 */
export interface DirectiveCtx {
  readonly call: DirectiveCall;
  /** The calls applied before this one, in order (for rules such as "one specialize per func"). */
  readonly history: readonly DirectiveCall[];
  readonly api: DirectiveApi;
  reject(rule: string, message: string, hint?: string): never;
  /** Validates and applies another registered directive as a step of this one (composites). */
  run(t: TgtProgram, name: string, args: Args): TgtProgram;
  /** Is `args` valid for this directive on `t`? (for `generate`) */
  valid(t: TgtProgram, args: Args): boolean;
}

// `any` here lets built-ins declare precise argument records while the registry stores them
// uniformly; arguments are checked against `params` by the parser.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface Directive<A = any> {
  readonly name: string;
  readonly phase: Phase;
  /** One line for listings and error hints. */
  readonly summary?: string;
  /** The ID of the rewrite rule in spec/schedule.md, printed in traces. */
  readonly rule?: string;
  readonly params?: readonly ParamSpec[];
  /** Custom syntax: reads the arguments after the directive name. Needs `print`. */
  readonly parse?: (c: Cursor, read: (type: ParamType) => ArgValue) => A;
  /** Custom syntax: the text after the directive name. */
  readonly print?: (args: A) => string;
  readonly validate: (t: TgtProgram, args: A, ctx: DirectiveCtx) => void;
  readonly apply: (t: TgtProgram, args: A, ctx: DirectiveCtx) => TgtProgram;
  /** Checks that need the whole schedule, run on the final program (e.g. vectorize's constant extent). */
  readonly finalCheck?: (t: TgtProgram, args: A, ctx: DirectiveCtx) => void;
  /**
   * What must hold for the rewrite of `t` into `after` to be sound (spec/effects.md, "Obligations
   * of the directives"); the obligations of steps run through `ctx.run` are gathered besides. A
   * plug-in without it is proved by the generic route ([OBL-GENERIC]).
   */
  readonly obligations?: (t: TgtProgram, args: A, ctx: DirectiveCtx, after: TgtProgram) => readonly Obligation[];
  /** Random valid arguments for `t`, or undefined when the directive applies nowhere in `t`. */
  readonly generate: (t: TgtProgram, rng: Rng, ctx: DirectiveCtx) => A | undefined;
  /** Where a user directive was loaded from (set by `loadDirectiveModule`). */
  readonly source?: string;
}

/** One directive of a schedule with its arguments and where it was written. */
export interface DirectiveCall {
  readonly directive: Directive;
  readonly args: Args;
  readonly loc?: Loc;
}

export interface Schedule {
  readonly file: string;
  readonly calls: readonly DirectiveCall[];
  /** The directives the schedule may use (built-ins plus loaded user directives). */
  readonly registry: DirectiveRegistry;
  /** Notes to print when the schedule is read: calls of a Halide-style file skipped, and why. */
  readonly notes?: readonly string[];
}

/** A schedule rule broken by a directive; the driver adds the directive's location and text. */
export class Rejection extends Error {
  constructor(
    readonly rule: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'Rejection';
  }
}

/**
 * `validate` and `apply` of a directive that is valid exactly when its checked rewrite succeeds
 * (compute-at and store-at check lemma 2.5 on the rewritten program): both run `rewrite`.
 */
export function validatedByRewriting<A>(rewrite: (t: TgtProgram, args: A, ctx: DirectiveCtx) => TgtProgram): Pick<Directive<A>, 'validate' | 'apply'> {
  // A driver validates and then applies the same call (and `generate` validates the arguments it
  // then returns): the checked rewrite of the same program with the same argument object is
  // computed once. Programs and arguments are immutable; the rewrite uses the context only to reject.
  const last = new WeakMap<TgtProgram, { readonly args: A; readonly out: TgtProgram }>();
  const run = (t: TgtProgram, a: A, ctx: DirectiveCtx): TgtProgram => {
    const hit = last.get(t);
    if (hit && hit.args === a) return hit.out;
    const out = rewrite(t, a, ctx);
    last.set(t, { args: a, out });
    return out;
  };
  return {
    validate(t, a, ctx) {
      run(t, a, ctx);
    },
    apply: run,
  };
}

/** Does `f` run without a rejection? Any other error propagates (it is a bug, not invalidity). */
export function accepts(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch (e) {
    if (e instanceof Rejection) return false;
    throw e;
  }
}

/** A statement a split may leave between two nested loops: a `let` or a guard (spec/schedule.md, [SWAP]). */
export type LoopWrapper =
  | { readonly k: 'let'; readonly var: string; readonly value: Expr; readonly loc?: Stmt['loc'] }
  | { readonly k: 'guard'; readonly cond: Expr; readonly loc?: Stmt['loc'] };

/** What `generate` draws from: `below(n)` is uniform in [0, n). */
export interface Choices {
  below(n: number): number;
}

/**
 * The helpers handed to user modules (and available as `ctx.api`), filled in by api.ts with the
 * functions the built-ins use; the compiler checks each against the signature written here, which
 * is the plug-in contract (spec/schedule.md, "The data a directive sees").
 */
export interface DirectiveApi {
  readonly defineDirective: typeof defineDirective;
  readonly Rejection: typeof Rejection;
  // expressions
  readonly cst: (value: Value) => Expr;
  readonly vr: (name: string) => Expr;
  readonly op: (o: OpName, ...args: Expr[]) => Expr;
  /** the variables an expression mentions, as a new Set (or added to `out`) */
  readonly freeVars: (e: Expr, out?: Set<string>) => Set<string>;
  readonly substExpr: (e: Expr, sub: ReadonlyMap<string, Expr>) => Expr;
  readonly printExpr: (e: Expr, mode: 'alg' | 'tgt', prec?: number) => string;
  /** parses target-language expression text; a syntax error is thrown as a located error */
  readonly parseExpr: (text: string) => Expr;
  readonly printStmt: (s: Stmt, indent?: number) => string;
  // programs
  readonly funcsOf: (t: TgtProgram) => string[];
  readonly dimsOf: (t: TgtProgram, f: string) => string[];
  readonly stageCount: (t: TgtProgram, f: string) => number;
  readonly loopsOf: (t: TgtProgram) => LoopInfo[];
  /** a loop as a schedule names it (`f.x` is the final stage's): rejects [SCHED-LOOP] when there is none */
  readonly resolveLoop: (t: TgtProgram, text: string) => LoopInfo;
  readonly nestedLoop: (outer: ForStmt) => { wrappers: LoopWrapper[]; inner: ForStmt } | undefined;
  readonly isPure: (t: TgtProgram, v: string) => boolean;
  readonly pureVars: (t: TgtProgram) => Set<string>;
  /** the program with the statement at `path` replaced by `f` of it (never mutates `t`) */
  readonly replaceAt: (t: TgtProgram, path: StmtPath, f: (s: Stmt) => Stmt) => TgtProgram;
  readonly freshLoopVar: (t: TgtProgram, like: LoopName, v: string, taken?: ReadonlySet<string>) => string;
  readonly inventName: (t: TgtProgram, like: LoopName, base: string, taken?: ReadonlySet<string>) => string;
  readonly requireStartup: (t: TgtProgram, e: Expr, what: string) => void;
  readonly constValue: (e: Expr) => Int | undefined;
  // randomness for generate
  readonly pick: <T>(rng: Choices, xs: readonly T[]) => T | undefined;
  readonly shuffled: <T>(rng: Choices, xs: readonly T[]) => T[];
  readonly firstValid: <A>(rng: Choices, cands: readonly A[], valid: (a: A) => boolean) => A | undefined;
}

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/**
 * Checks the shape of a directive definition and returns it. Exported from the package entry;
 * user modules get it through `DirectiveApi` or may export the plain object directly.
 */
export function defineDirective<A>(d: Directive<A>): Directive<A> {
  const fail = (what: string): never => {
    throw new UserError(`directive ${typeof d?.name === 'string' ? `'${d.name}' ` : ''}is malformed: ${what}`, d?.source ? { file: d.source, line: 1, col: 1 } : undefined, 'see spec/schedule.md, "Writing a directive"');
  };
  if (typeof d !== 'object' || d === null) fail('expected an object');
  if (typeof d.name !== 'string' || !NAME.test(d.name)) fail('name must be lower-case words joined by -, e.g. tile or split-vectorize');
  if (!(PHASES as readonly string[]).includes(d.phase)) fail(`phase must be one of ${PHASES.join(', ')}`);
  for (const f of ['validate', 'apply', 'generate'] as const) if (typeof d[f] !== 'function') fail(`${f} must be a function`);
  if (d.obligations !== undefined && typeof d.obligations !== 'function') fail('obligations must be a function');
  if (d.parse !== undefined && (typeof d.parse !== 'function' || typeof d.print !== 'function')) fail('a custom parse needs a print function too');
  if (d.parse === undefined) {
    if (!Array.isArray(d.params)) fail('give params (the argument list) or parse + print');
    let seenOptional = false;
    for (const p of d.params ?? []) {
      if (typeof p?.name !== 'string' || p.type === undefined) fail('each param needs a name and a type');
      if (p.optional && !p.key) fail(`optional param '${p.name}' needs a key word`);
      if (seenOptional && !p.key) fail(`param '${p.name}' follows an optional one and so needs a key word`);
      if (p.optional) seenOptional = true;
    }
  }
  return d;
}

/** The directives a schedule may name. */
export class DirectiveRegistry {
  private readonly byName: ReadonlyMap<string, Directive>;

  constructor(readonly directives: readonly Directive[]) {
    const m = new Map<string, Directive>();
    for (const d of directives) {
      if (m.has(d.name)) {
        throw new UserError(`directive '${d.name}' is defined twice${d.source ? ` (again in ${d.source})` : ''}`, undefined, 'give user directives names that no built-in uses');
      }
      m.set(d.name, d);
    }
    this.byName = m;
  }

  get(name: string): Directive | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  /** This registry plus `more` (user directives); a name clash is an error. */
  with(more: readonly Directive[]): DirectiveRegistry {
    return new DirectiveRegistry([...this.directives, ...more]);
  }
}

