// Configurations: which translation produces the annotated program, which passes
// run, which checks apply; and one run of a configuration with its checks and statistics.
import { type CheckCoverage, type CheckName, STEP_CHECKS, stepChecker } from './checks.js';
import { checkDerivable } from './declarative.js';
import { elaborate } from './elaborate.js';
import { Cell, type RV } from './heap-code.js';
import { type RunResult, type TraceLine, run } from './heap-machine.js';
import { compile } from './heap-compile.js';
import { dropSpecialization } from './opt/dropspec.js';
import { dupDropFusion } from './opt/fusion.js';
import { reuseAnalysis } from './opt/reuse.js';
import { reuseSpecialization } from './opt/reusespec.js';
import { scopedRc } from './scoped.js';
import { type StdOutcome, evalStandard, printValue, valueEquals } from './standard.js';
import type { Stats } from './stats.js';
import type { Expr, Program } from './syntax.js';
import { perceus } from './syntax-directed.js';

export const OPTS = ['dropspec', 'fusion', 'reuse', 'reusespec'] as const;
export type OptName = (typeof OPTS)[number];

export interface Config {
  readonly name: string;
  /** The scoped baseline of §4.2.2 instead of Perceus. */
  readonly scoped?: boolean;
  /** Run the formal (match_r) machine instead of the elaborated one. */
  readonly formal?: boolean;
  readonly opts: ReadonlySet<OptName>;
}

const cfg = (name: string, opts: OptName[], extra: Partial<Config> = {}): Config => ({ name, opts: new Set(opts), ...extra });

/** The configurations of the benchmarks, cumulative as in fig. 4.9's "no-opt" … "all". */
export const CONFIGS: readonly Config[] = [
  cfg('scoped', [], { scoped: true }),
  cfg('formal', [], { formal: true }),
  cfg('perceus', []),
  cfg('+dropspec', ['dropspec']),
  cfg('+fusion', ['dropspec', 'fusion']),
  cfg('+reuse', ['dropspec', 'fusion', 'reuse']),
  cfg('+reusespec', ['dropspec', 'fusion', 'reuse', 'reusespec']),
];

/** Each pass switched on alone (or with only what it needs), for the fuzz property. */
export const SINGLE_PASS_CONFIGS: readonly Config[] = [
  cfg('dropspec', ['dropspec']),
  cfg('fusion', ['fusion']),
  cfg('reuse', ['reuse']),
  cfg('reuse+reusespec', ['reuse', 'reusespec']),
  cfg('reuse+fusion', ['reuse', 'fusion']),
];

/**
 * The checks a configuration keeps (docs/proofs/perceus.md, "What each pass keeps"): every
 * configuration keeps soundness, no garbage, exact counts and the empty heap; precision holds for
 * all Perceus configurations (reserved reuse cells are memory, not heap entries) but not for the
 * scoped baseline.
 */
export function applicableChecks(c: Config): Set<CheckName> {
  const all = new Set<CheckName>(['soundness', 'garbage', 'precision', 'counts', 'empty']);
  if (c.scoped) all.delete('precision');
  return all;
}

/**
 * Rewrites run after a stage of the translation: none in refsem itself; the bug zoo plants
 * Perceus faults through them (src/fuzz/zoo/perceus-faults.ts), as it replaces a bounds engine.
 */
export interface StageHooks {
  /** after reuse analysis */
  readonly reuse?: (p: Program) => Program;
  /** after reuse specialization */
  readonly reusespec?: (p: Program) => Program;
  /** after dup/drop insertion (fig. 4.8) */
  readonly perceus?: (p: Program) => Program;
}

/** The annotated program a configuration runs. */
export function annotate(core: Program, c: Config, hooks: StageHooks = {}): Program {
  if (c.scoped) return scopedRc(core);
  const after = (stage: keyof StageHooks, p: Program) => hooks[stage]?.(p) ?? p;
  let p = core;
  if (c.opts.has('reuse')) p = after('reuse', reuseAnalysis(p));
  if (c.opts.has('reusespec') && c.opts.has('reuse')) p = after('reusespec', reuseSpecialization(p));
  p = after('perceus', perceus(p).program);
  if (!c.formal) p = elaborate(p);
  if (c.opts.has('dropspec')) p = dropSpecialization(p);
  if (c.opts.has('fusion')) p = dupDropFusion(p);
  return p;
}

/** [H]x: the value a heap name denotes, as a term (closures are functions, not compared). */
export function readBack(v: RV): Expr {
  // Post-order with an explicit stack: results can be deep (long lists).
  const done = new Map<Cell, Expr>();
  const leaf = (x: RV): Expr | undefined =>
    !(x instanceof Cell) ? { k: 'lit', value: x } : x.lam ? { k: 'lam', param: x.lam.src.param, body: { k: 'lit', value: 0 } } : done.get(x);
  const todo: Cell[] = v instanceof Cell ? [v] : [];
  while (todo.length > 0) {
    const c = todo[todo.length - 1]!;
    if (done.has(c) || c.lam) {
      todo.pop();
      continue;
    }
    const missing = c.fields.filter((f) => leaf(f) === undefined) as Cell[];
    if (missing.length > 0) {
      todo.push(...missing);
      continue;
    }
    todo.pop();
    done.set(c, { k: 'con', con: c.con!.name, args: c.fields.map((f) => leaf(f)!) });
  }
  return leaf(v)!;
}

/** Prints a heap value without recursion, eliding beyond `budget` characters. */
export function showRV(v: RV, budget = 400): string {
  let out = '';
  const todo: (RV | string)[] = [v];
  while (todo.length > 0) {
    if (out.length > budget) return out + '…';
    const x = todo.pop()!;
    if (typeof x === 'string') out += x;
    else if (!(x instanceof Cell)) out += x.toString();
    else if (x.lam) out += '<fun>';
    else {
      out += x.con!.name;
      if (x.fields.length > 0) {
        const parts: (RV | string)[] = ['('];
        x.fields.forEach((a, i) => parts.push(...(i ? [', ', a] : [a])));
        parts.push(')');
        for (let i = parts.length - 1; i >= 0; i--) todo.push(parts[i]!);
      }
    }
  }
  return out;
}

export type RcVerdict =
  | { readonly ok: true; /** set when the per-step checks stopped at their budget before the run ended */ readonly partial?: CheckCoverage & { readonly stoppedAt: number; readonly steps: number } }
  | { readonly ok: false; readonly check: string; readonly message: string; readonly step?: number };

export interface ConfigRun {
  readonly config: Config;
  readonly program: Program;
  readonly result: RunResult;
  readonly verdict: RcVerdict;
  readonly value?: string;
}

export interface RunSettings {
  readonly checks?: ReadonlySet<CheckName>;
  readonly maxSteps?: number;
  readonly trace?: TraceLine[];
  /** The standard semantics' outcome, when soundness is checked (computed once per program). */
  readonly reference?: StdOutcome;
  /** Work the per-step checks may spend ([RC-CHECK-BUDGET]); unlimited when absent. */
  readonly maxCheckWork?: number;
  readonly hooks?: StageHooks;
}

export function runConfig(core: Program, c: Config, s: RunSettings = {}): ConfigRun {
  return runAnnotated(annotate(core, c, s.hooks), c, s);
}

/** Runs an already annotated program (`refsem rc --annotated`, or `annotate` output). */
export function runAnnotated(program: Program, c: Config, s: RunSettings = {}): ConfigRun {
  const checks = s.checks ?? new Set<CheckName>();
  const stepChecks = new Set([...checks].filter((k) => STEP_CHECKS.includes(k)));
  const checker = stepChecks.size ? stepChecker(stepChecks, s.maxCheckWork) : undefined;
  const result = run(
    compile(program, c.formal ?? false),
    {
      ...(s.maxSteps !== undefined ? { maxSteps: s.maxSteps } : {}),
      ...(checker ? { check: checker.check } : {}),
      ...(s.trace ? { trace: s.trace } : {}),
      verifyKeep: checks.has('counts'),
    },
    checks.has('soundness') ? readBack : undefined,
  );
  const verdict = verdictOf(result, checks, s.reference);
  const coverage = checker?.coverage();
  const partial = verdict.ok && coverage?.stoppedAt !== undefined ? { partial: { ...coverage, stoppedAt: coverage.stoppedAt, steps: result.stats.steps } } : {};
  return { config: c, program, result, verdict: { ...verdict, ...partial }, ...(result.value !== undefined ? { value: showRV(result.value) } : {}) };
}

function verdictOf(r: RunResult, checks: ReadonlySet<CheckName>, ref: StdOutcome | undefined): RcVerdict {
  if (r.stop?.kind === 'violation') return { ok: false, check: r.stop.check, message: r.stop.message, step: r.stop.step };
  if (r.stop) return { ok: true };
  if (checks.has('soundness') && ref) {
    if (ref.kind !== 'value') return { ok: false, check: 'soundness', message: `the standard semantics ends ${ref.kind}, the heap machine with a value` };
    if (!valueEquals(r.readback!, ref.value)) return { ok: false, check: 'soundness', message: `heap result ${printValue(r.readback!)} differs from the standard result ${printValue(ref.value)} (theorem 4.1)` };
  }
  if (checks.has('empty') && r.liveAtEnd !== 0) {
    const which = r.leaked.slice(0, 5).map((c) => `#${c.id} ${c.con?.name ?? 'closure'}`).join(', ');
    return { ok: false, check: 'empty', message: `${r.liveAtEnd} cell(s) remain after the result is dropped${which ? `: ${which}` : ''}` };
  }
  return { ok: true };
}

/**
 * 'PEAK-LIVE': a garbage-free configuration never holds more cells than the standard semantics
 * can reach at its fullest (theorem 4.4 at the steps that allocate). The scoped baseline is not
 * garbage free; with reuse a reserved cell is memory the standard semantics has no counterpart
 * for (the matched value is dead, the new one not yet built). Both are exempt.
 */
export function peakLiveViolation(stats: Readonly<Record<string, Stats>>, peakReachable: number): { config: string; message: string } | undefined {
  for (const c of [...CONFIGS, ...SINGLE_PASS_CONFIGS]) {
    const s = stats[c.name];
    if (c.scoped || c.opts.has('reuse') || !s || s.peakLive <= peakReachable) continue;
    return { config: c.name, message: `peak live cells ${s.peakLive} exceed the ${peakReachable} cells the standard semantics ever reaches` };
  }
  return undefined;
}

export interface PropertyVerdict {
  readonly ok: boolean;
  readonly config?: string;
  readonly check?: string;
  readonly message?: string;
  /** Per configuration, for reporting. */
  readonly stats: Record<string, Stats>;
}

/**
 * The fuzz property : one program, every configuration (the cumulative ones and
 * each pass alone), every applicable check;
 * theorem 4.3 (Perceus output derivable in fig. 4.5); and the peak-memory comparison with the
 * scoped baseline. Programs the standard semantics cannot finish within the budget are vacuous.
 */
export function perceusProperty(core: Program, maxSteps = 200_000, hooks: StageHooks = {}): PropertyVerdict {
  const stats: Record<string, Stats> = {};
  const reference = evalStandard(core, maxSteps, undefined, true);
  if (reference.kind !== 'value') return { ok: true, stats };
  const translated = perceus(core).program;
  const nd = checkDerivable(hooks.perceus?.(translated) ?? translated);
  if (nd) return { ok: false, config: 'perceus', check: 'derivable', message: `${nd.fun}: [${nd.rule}] ${nd.message}`, stats };
  for (const c of [...CONFIGS, ...SINGLE_PASS_CONFIGS]) {
    const r = runConfig(core, c, { checks: applicableChecks(c), maxSteps: maxSteps * 20, reference, hooks });
    stats[c.name] = r.result.stats;
    if (r.result.stop && r.result.stop.kind !== 'violation') return { ok: false, config: c.name, check: 'soundness', message: `heap machine ${r.result.stop.kind} where the standard semantics has a value`, stats };
    if (!r.verdict.ok) return { ok: false, config: c.name, check: r.verdict.check, message: r.verdict.message, stats };
  }
  const peak = peakLiveViolation(stats, reference.peakReachable!);
  if (peak) return { ok: false, ...peak, check: 'peak-live', stats };
  for (const c of CONFIGS) {
    if (!c.scoped && stats[c.name]!.peakLive > stats['scoped']!.peakLive) {
      return { ok: false, config: c.name, check: 'peak', message: `peak live cells ${stats[c.name]!.peakLive} exceed the scoped baseline's ${stats['scoped']!.peakLive}`, stats };
    }
  }
  return { ok: true, stats };
}
