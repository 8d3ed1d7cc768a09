// The report of one program: what `refsem html` writes and the playground shows. It runs the
// flow of a program (thesis ch. 2): parse and validate (§2.4), lower (fig. 2.9), apply the
// schedule directive by directive (§2.8), extract the bounds query and complete it with an engine
// (§2.7), realize the algorithm and run the completed program (fig. 2.8), and derive one point
// (fig. 2.6). Every step's failure becomes a located message in the report, never an exception,
// so a half-written program in the playground still shows what can be shown.
import type { Pipeline } from '../alg-semantics/ast.js';
import { realize } from '../alg-semantics/fast-eval.js';
import { derivePoint, type Derivation, parsePoint } from '../alg-semantics/spec-eval.js';
import { type BoundsEngine, BUILTIN_ENGINES } from '../bounds/engine.js';
import { printQuery } from '../bounds/query.js';
import { showVerdict } from '../lowering/equivalence.js';
import { algorithm, compare, complete, lowerStep, query, run, schedule } from '../pipeline.js';
import { UserError } from '../diag.js';
import { holeKey } from '../expr/ast.js';
import { printExpr } from '../expr/print.js';
import { showValue, type Int } from '../expr/value.js';
import { builtinRegistry } from '../schedule/builtins.js';
import { readSchedule } from '../schedule/halide-style.js';
import type { DirectiveRegistry } from '../schedule/plugin.js';
import { callPlace, printCall } from '../schedule/print.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import type { MemEvent } from '../target-semantics/machine.js';
import { showOutcome } from '../target-semantics/display.js';
import { holesOf } from '../target-semantics/holes.js';
import { printTgt } from '../target-semantics/print.js';
import { iterationSpace } from './iteration-space.js';
import { loopTree } from './loop-tree.js';
import { diffTrees } from './tree-diff.js';
import type { DerivationNode, MachineStep, ProgramStep, ReportModel, RuleRef, StepMem } from './model.js';

export interface ReportRequest {
  readonly source: { readonly file: string; readonly text: string };
  readonly schedule?: { readonly file: string; readonly text: string };
  /** [min, len] per output dimension; default `DEFAULT_WINDOW` in each */
  readonly window?: readonly (readonly [number, number])[];
  readonly params?: Readonly<Record<string, number>>;
  /** default beta1 (sound, and seldom gives up) */
  readonly engine?: BoundsEngine;
  /** the point to derive, e.g. `f(1, 2)`; default the window's first point of the output */
  readonly point?: string;
  /** the window the machine steps through; default its first points (`stepWindowOf`) */
  readonly stepWindow?: readonly (readonly [number, number])[];
  /** directives besides the built-ins (plug-ins loaded by the caller) */
  readonly registry?: DirectiveRegistry;
  /** steps each evaluation of the window (reference, target, derivation) may take; default `REPORT_LIMITS.evalSteps` */
  readonly budget?: number;
}

/** The output window of a report when none is given, per dimension. */
export const DEFAULT_WINDOW = { min: 0, len: 8 } as const;

/** The first points of a window, few enough to step through: four in one dimension, two per dimension beyond. */
export function stepWindowOf(window: readonly (readonly [number, number])[]): (readonly [number, number])[] {
  return window.map(([m, l]) => [m, Math.min(l, window.length > 1 ? 2 : 4)] as const);
}

/** Limits that keep a report small enough to read and to compute in a moment. */
export const REPORT_LIMITS = { machineSteps: 5_000, derivationSteps: 30_000, derivationNodes: 3_000, derivationDepth: 3, stepPoints: 64, evalSteps: 10_000_000 } as const;

const message = (e: unknown): string => (e instanceof UserError ? e.render() : `internal error: ${(e as Error)?.message ?? String(e)}`);

/** The report of an algorithm with an optional schedule; never throws on bad input. */
export function buildReport(req: ReportRequest): ReportModel {
  const rule = (id: string): RuleRef => ({ id });
  const errors: string[] = [];
  const notes: string[] = [];
  const programs: ProgramStep[] = [];
  const base = { title: `refsem report: ${req.source.file}${req.schedule ? ` with ${req.schedule.file}` : ''}`, source: req.source };
  const done = (extra: Partial<ReportModel> = {}): ReportModel => ({ ...base, errors, notes, programs, ...extra });

  let alg: Pipeline;
  try {
    alg = algorithm(req.source);
  } catch (e) {
    errors.push(message(e));
    return done();
  }
  let t: TgtProgram = lowerStep(alg);
  let tree = loopTree(t);
  programs.push({ label: 'T0', text: printTgt(t), tree });
  if (req.schedule) {
    // A refused directive leaves the last program the schedule reached: the report goes on with
    // it, so the refusal is seen beside the picture of what was accepted before it.
    let reached = t;
    try {
      const t0 = t;
      const s = readSchedule(req.schedule.text, req.schedule.file, () => t0, req.registry ?? builtinRegistry());
      // calls of a Halide-style schedule skipped because they change no value ([HALIDE-STYLE-IGNORED])
      notes.push(...(s.notes ?? []).map((n) => n.trim()));
      t = schedule(t, s, alg, {
        onStep: (e) => {
          if (e.step !== 'directive') return;
          reached = e.t;
          const c = e.call;
          const next = loopTree(e.t);
          const changes = diffTrees(tree, next);
          tree = next;
          programs.push({
            label: `T${programs.length}`,
            directive: `${printCall(c)}   (${callPlace(c)})`,
            ...(c.directive.rule ? { rule: rule(c.directive.rule) } : {}),
            text: printTgt(e.t),
            tree,
            changes,
          });
        },
      });
    } catch (e) {
      errors.push(message(e));
      if (!(e instanceof UserError)) return done();
      t = reached;
      notes.push(`the schedule was refused; what follows is ${programs[programs.length - 1]!.label}, the last program it reached`);
    }
  }

  const engine = req.engine ?? BUILTIN_ENGINES.beta1!;
  const holes = holesOf(t);
  const completed = complete(t, engine);
  const by = completed.completedBy;
  const bounds = {
    holes: holes.map(holeKey),
    query: printQuery(query(t), { rules: true }),
    engine: engine.name,
    completion: by.completion ? [...by.completion].map(([k, v]) => `${k} = ${printExpr(v, 'tgt')}`) : [],
    ...(by.failure !== undefined ? { failure: by.failure } : {}),
  };

  const out = alg.funcs.find((f) => f.name === alg.output)!;
  const window = req.window ?? out.vars.map(() => [DEFAULT_WINDOW.min, DEFAULT_WINDOW.len] as const);
  const params = new Map<string, Int>(Object.entries(req.params ?? {}).map(([k, v]) => [k, v]));
  for (const p of alg.params) if (!params.has(p)) (params.set(p, 4), notes.push(`parameter ${p} is not given; the report uses ${p} = 4`));
  const input = { window, params };
  const evalSteps = req.budget ?? REPORT_LIMITS.evalSteps;
  const derivationSteps = Math.min(evalSteps, REPORT_LIMITS.derivationSteps);
  let output: ReportModel['output'];
  let space: ReportModel['space'];
  let verdict: ReportModel['verdict'];
  try {
    // A page is a summary: its evaluations are bounded, so a huge reduction domain ends in a
    // message on the page rather than in a run that never ends (compare realizes the same input
    // again, within the same number of steps once this one has ended).
    const ref = realize(alg, input, { maxSteps: evalSteps });
    output = { func: alg.output, window, values: ref.values.map(showValue) };
    const v = compare(alg, completed, input, { maxSteps: evalSteps });
    verdict = { kind: v.kind === 'equal' || v.kind === 'differs' ? v.kind : 'vacuous', text: showVerdict(v) };
    space = iterationSpace(completed, input);
  } catch (e) {
    errors.push(message(e));
  }

  const stepWindow = req.stepWindow ?? stepWindowOf(window);
  const stepPoints = stepWindow.reduce((n, [, l]) => n * l, 1);
  let machine: ReportModel['machine'];
  if (stepPoints > REPORT_LIMITS.stepPoints) {
    errors.push(`the step window has ${stepPoints} points, more than the ${REPORT_LIMITS.stepPoints} a report steps through; give a smaller window`);
  } else {
    const steps: MachineStep[] = [];
    try {
      const o = run(completed, { window: stepWindow, params }, {
        executor: 'machine',
        maxSteps: REPORT_LIMITS.machineSteps,
        onStep: (ev) => void steps.push({ rule: rule(ev.rule), text: `${ev.redex} ⟶ ${ev.result}`, ...(ev.mem ? { mem: stepMem(ev.mem) } : {}) }),
      });
      // The report's step limit is not a stuck state (no rule failing to apply): it says which it is.
      const limited = o.kind === 'stuck' && o.stuck.kind === 'budget-exceeded';
      const outcome = limited ? `step limit reached: the report shows the first ${REPORT_LIMITS.machineSteps} steps; no rule failed to apply, the program has more to do` : showOutcome(o);
      machine = { window: stepWindow.map(([m, l]) => `[${m}, ${m + l})`).join(' × '), steps, outcome, truncated: limited };
    } catch (e) {
      errors.push(message(e));
    }
  }

  let derivation: ReportModel['derivation'];
  try {
    const text = req.point ?? `${alg.output}(${window.map(([m]) => m).join(', ')})`;
    const parsed = parsePoint(text);
    if (!parsed) throw new UserError(`the point '${text}' is not a func applied to integers`, { file: '<point>', line: 1, col: 1 }, 'write e.g. f(3, -4)');
    const { func, point } = parsed;
    // A derivation too long to show whole is shown to a depth, as `refsem explain --depth` does
    // (spec/report.md, [REPORT-PROOF]): deeper func values come from the evaluator.
    const whole = derivePoint(alg, params, func, point, derivationSteps);
    const depth = whole.kind === 'value' ? undefined : REPORT_LIMITS.derivationDepth;
    const r = depth === undefined ? whole : derivePoint(alg, params, func, point, derivationSteps, depth);
    if (r.kind === 'value') {
      const budget = { left: REPORT_LIMITS.derivationNodes };
      const tree = toNode(r.tree, rule, budget);
      derivation = { point: `${func}(${point.join(', ')})`, tree, truncated: budget.left <= 0, nodes: REPORT_LIMITS.derivationNodes, budget: derivationSteps, ...(depth !== undefined ? { depth } : {}) };
    } else notes.push(`the derivation of ${func}(${point.join(', ')}) takes more than ${derivationSteps} steps even to depth ${depth}; choose a point of a producer with --point to see one`);
  } catch (e) {
    errors.push(message(e));
  }
  return done({ bounds, ...(output ? { output } : {}), ...(space ? { space } : {}), ...(verdict ? { verdict } : {}), ...(machine ? { machine } : {}), ...(derivation ? { derivation } : {}) });
}

/** A machine step's memory event as the page keeps it: printed values (implements [REPORT-MEMORY]). */
function stepMem(e: MemEvent): StepMem {
  return e.kind === 'alloc'
    ? { kind: 'alloc', func: e.func, at: e.bounds.flatMap(([m, l]) => [String(m), String(l)]) }
    : { kind: e.kind, func: e.func, at: e.point.map(showValue), value: showValue(e.value) };
}

/** A derivation as report nodes, at most `budget.left` of them (breadth is kept, depth cut). */
function toNode(d: Derivation, rule: (id: string) => RuleRef, budget: { left: number }): DerivationNode {
  budget.left--;
  const children = budget.left > 0 ? d.children.map((c) => toNode(c, rule, budget)) : [];
  return { rule: rule(d.rule), text: d.text, children };
}
