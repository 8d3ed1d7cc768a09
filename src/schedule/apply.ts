// The schedule driver (§2.3, fig. 2.4): T_{i+1} = 𝓢(s_i, T_i). Each directive is validated, then
// applied; a rejection becomes a UserError naming the directive's file:line:col, its text, the rule
// it breaks and what is involved. With `check` (the tests, `refsem schedule --check`) every T_i is
// checked against lemmas 2.4 and 2.5; a user directive's T_i always is.
import { UserError } from '../diag.js';
import type { Pipeline } from '../alg-semantics/ast.js';
import { checkDominance, checkLoopNaming } from '../lowering/invariants.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { parseTgt } from '../target-semantics/parse.js';
import { printTgt } from '../target-semantics/print.js';
import { directiveApi } from './api.js';
import { builtinRegistry } from './builtins.js';
import { dominanceViolations } from './dominance.js';
import { funcsOf } from './loops.js';
import { checkPhaseOrder } from './phases.js';
import { type Directive, type DirectiveCall, type DirectiveCtx, type DirectiveRegistry, Rejection, type Schedule, accepts } from './plugin.js';
import type { Rng } from '../rng.js';
import { printCall } from './print.js';

export interface ApplyOptions {
  /** Check lemmas 2.4 and 2.5 after every directive (the flow's `lemmaCheck` observer does the same). */
  readonly check?: boolean;
  /** The algorithm, when known: lemma 2.5 is then checked exactly as stated (on stores). */
  readonly pipeline?: Pipeline;
  /** Called with each directive and the program it produced. */
  readonly onStep?: (call: DirectiveCall, t: TgtProgram) => void;
  /**
   * The program the schedule's call `i` made before, from the same program and the same calls
   * before it (so its checks passed then), if the caller kept it: used instead of applying the
   * call again. A report kept between edits knows the programs of a schedule's unchanged first
   * lines (spec/report.md, [REPORT-INCREMENTAL]).
   */
  readonly known?: (i: number) => TgtProgram | undefined;
}

/** The context a directive's functions receive for one call. */
export function directiveCtx(call: DirectiveCall, registry: DirectiveRegistry, history: readonly DirectiveCall[] = []): DirectiveCtx {
  const ctx: DirectiveCtx = {
    call,
    history,
    api: directiveApi,
    reject(rule, message, hint) {
      throw new Rejection(rule, message, hint);
    },
    run(t, name, args) {
      const d = registry.get(name);
      if (!d) throw new Rejection('SCHED-RUN', `there is no directive '${name}' to run as a step`);
      const sub: DirectiveCall = { directive: d, args, ...(call.loc ? { loc: call.loc } : {}) };
      try {
        const c = directiveCtx(sub, registry, history);
        d.validate(t, args, c);
        return d.apply(t, args, c);
      } catch (e) {
        if (e instanceof Rejection) throw new Rejection(e.rule, `step '${printCall(sub)}': ${e.message}`, e.hint);
        throw e;
      }
    },
    valid(t, args) {
      return accepts(() => call.directive.validate(t, args, directiveCtx({ ...call, args }, registry, history)));
    },
  };
  return ctx;
}

/**
 * Random valid arguments for directive `d` on program `t` (for the fuzzers), as a call, or
 * undefined when `d` applies nowhere in `t`.
 */
export function generateCall(d: Directive, t: TgtProgram, rng: Rng, registry: DirectiveRegistry = builtinRegistry(), history: readonly DirectiveCall[] = []): DirectiveCall | undefined {
  const args = d.generate(t, rng, directiveCtx({ directive: d, args: {} }, registry, history));
  return args === undefined ? undefined : { directive: d, args };
}

/** Runs `f` for a call, turning rejections (and failures of user directives) into UserErrors. */
function reporting<T>(call: DirectiveCall, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof Rejection) throw new UserError(`${printCall(call)}: [${e.rule}] ${e.message}`, call.loc, e.hint);
    if (call.directive.source !== undefined && !(e instanceof UserError)) {
      throw new UserError(`${printCall(call)}: directive '${call.directive.name}' from ${call.directive.source} failed: ${(e as Error)?.message ?? String(e)}`, call.loc);
    }
    throw e;
  }
}

/** Lemma 2.4 and lemma 2.5 on one program: the violations found (empty when both hold). */
export function invariantViolations(t: TgtProgram, pipeline?: Pipeline): string[] {
  const naming = checkLoopNaming(t).map((m) => `lemma 2.4: ${m}`);
  const dominance = pipeline
    ? checkDominance(t, pipeline)
    : funcsOf(t).flatMap((f) => dominanceViolations(t, f).map((v) => `${v.kind === 'alloc' ? `allocate ${f}` : `the loops for ${f}`} do not dominate ${v.at}`));
  return [...naming, ...dominance.map((m) => `lemma 2.5: ${m}`)];
}

/**
 * A user directive's result must be a program of fig. 2.7: it prints, and the printed text parses
 * back to the same program (so no unknown statement kinds or malformed expressions slip through).
 */
function wellFormed(t: TgtProgram, call: DirectiveCall): void {
  let why: string | undefined;
  try {
    const text = printTgt(t);
    if (printTgt(parseTgt(text, '<directive result>')) !== text) why = 'it does not print and parse back to itself';
  } catch (e) {
    why = e instanceof UserError ? e.message : String((e as Error)?.message ?? e);
  }
  if (why !== undefined) {
    throw new UserError(`${printCall(call)}: directive '${call.directive.name}' from ${call.directive.source} returned a malformed program: ${why}`, call.loc,
      'apply must return a target program built from the statements and expressions of spec/target.md');
  }
}

/** Lemmas 2.4 and 2.5 after `call` produced `t`: a user directive's breach is the user's, a built-in's is ours. */
export function requireInvariants(t: TgtProgram, call: DirectiveCall, pipeline: Pipeline | undefined): void {
  const errs = invariantViolations(t, pipeline);
  if (errs.length === 0) return;
  const what = `${printCall(call)} broke ${errs.join('; ')}`;
  // A user directive that breaks an invariant is the user's bug; a built-in one is ours.
  if (call.directive.source !== undefined) throw new UserError(`${what} (directive from ${call.directive.source})`, call.loc);
  throw new Error(`internal: ${what}`);
}

/**
 * 𝓢(s, T) for one call after `history`: validated, then applied; a rejection is a UserError at the
 * call. Final checks are the whole schedule's business (applySchedule).
 */
export function applyCall(cur: TgtProgram, call: DirectiveCall, registry: DirectiveRegistry, history: readonly DirectiveCall[]): TgtProgram {
  const ctx = directiveCtx(call, registry, [...history]);
  return reporting(call, () => {
    call.directive.validate(cur, call.args, ctx);
    const next = call.directive.apply(cur, call.args, ctx);
    if (typeof next !== 'object' || next === null || typeof next.body !== 'object') {
      throw new UserError(`${printCall(call)}: directive '${call.directive.name}' returned something that is not a program`, call.loc, 'apply must return the new program');
    }
    if (call.directive.source !== undefined) wellFormed(next, call);
    return next;
  });
}

export function applySchedule(t: TgtProgram, s: Schedule, opts: ApplyOptions = {}): TgtProgram {
  checkPhaseOrder(s.calls);
  const history: DirectiveCall[] = [];
  let cur = t;
  for (const [i, call] of s.calls.entries()) {
    const known = opts.known?.(i);
    cur = known ?? applyCall(cur, call, s.registry, history);
    // A user directive's output is always checked: its invariants are not ours to vouch for.
    if (!known && (opts.check || call.directive.source !== undefined)) requireInvariants(cur, call, opts.pipeline);
    opts.onStep?.(call, cur);
    history.push(call);
  }
  for (const call of s.calls) {
    const fc = call.directive.finalCheck;
    if (fc) reporting(call, () => fc(cur, call.args, directiveCtx(call, s.registry, history)));
  }
  return cur;
}
