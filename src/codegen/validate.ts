// Validation of a binary against the reference (spec/codegen.md, "Verdicts"): the reference's
// Outcome (fast executor, fig. 2.8) and the binary's result for the same input are compared on the
// requested output window (def. 2.2: programs are equivalent up to agreement on the window).
import type { Input } from '../alg-semantics/ast.js';
import { add, div, mul, sub } from '../expr/ops.js';
import { type Int, type Value, showValue, toBig } from '../expr/value.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { compileTgt } from '../target-semantics/exec.js';
import type { Outcome, Stuck } from '../target-semantics/outcome.js';
import { someStmt } from '../target-semantics/walk.js';
import { UserError } from '../diag.js';
import type { StatusName } from './abi.js';
import type { SimdMode } from './emit-c.js';
import type { CodegenFaults } from './c-syntax.js';
import { type BatchItem, type BinaryResult, type ToolchainOptions, compileAndRun } from './toolchain.js';

export type BackendVerdict = BackendVerdictBody & {
  /** The rule of spec/codegen.md that judged it. */
  readonly rule?: string;
  /** [C-VARIANT] the variant markers the run set, when the binary ran */
  readonly ran?: bigint;
};

type BackendVerdictBody =
  | { readonly kind: 'equal'; readonly ok: true; /** points compared: 0 on an empty window, a vacuous pass */ readonly compared: number }
  | {
      readonly kind: 'differs';
      readonly ok: false;
      readonly point: readonly Int[];
      readonly expected: Value | undefined;
      readonly actual: Value | undefined;
    }
  | { readonly kind: 'overflow'; readonly ok: boolean; readonly confirmed: boolean; readonly message: string }
  | { readonly kind: 'stuck'; readonly ok: boolean; readonly reference: Stuck['kind'] | 'done'; readonly binary: StatusName | 'none'; readonly message: string }
  | { readonly kind: 'binary-failed'; readonly ok: false; readonly binary: string; readonly message: string }
  | { readonly kind: 'inconclusive'; readonly ok: true; readonly message: string };

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The statuses that correspond to each stuck state of the reference. */
const STUCK_STATUS: Partial<Record<Stuck['kind'], StatusName>> = {
  'assert-failed': 'assert',
  'rdom-failure': 'negativeExtent',
  'oob-read': 'oobRead',
  'oob-write': 'oobWrite',
  'error-in-control': 'errorInControl',
  unallocated: 'unallocated',
};

/**
 * An overflow report is confirmed when the reported operation, computed
 * exactly with the reference's operators, leaves the int64 range (or is a constant or input that
 * does not fit). The reference never wraps, so a confirmed overflow is the binary's honest limit,
 * not a wrong answer.
 */
export function overflowConfirmed(b: Extract<BinaryResult, { kind: 'ran' }>): boolean {
  if (!b.overflow) return b.message === 'an input does not fit in 64 bits';
  const { op, a, b: y } = b.overflow;
  if (op === 'c') return true;
  const exact = op === '+' ? add(a, y) : op === '-' ? sub(a, y) : op === '*' ? mul(a, y) : op === '/' ? div(a, y) : undefined;
  if (exact === undefined) return false;
  const big = toBig(exact);
  return big < INT64_MIN || big > INT64_MAX;
}

function windowPoints(window: Input['window']): Int[][] {
  const pts: Int[][] = [];
  const n = window.length;
  const total = window.reduce((acc, [, l]) => acc * Number(l), 1);
  const c = new Array<number>(n).fill(0);
  for (let k = 0; k < total; k++) {
    pts.push(window.map(([m], d) => add(m, c[d]!)));
    for (let d = 0; d < n; d++) {
      if (++c[d]! < Number(window[d]![1])) break;
      c[d] = 0;
    }
  }
  return pts;
}

function referenceAt(out: Extract<Outcome, { kind: 'done' }>['output'], p: readonly Int[]): Value | undefined {
  let off = 0;
  let stride = 1;
  for (let d = 0; d < p.length; d++) {
    const dim = out.dims[d];
    if (!dim) return undefined;
    const rel = toBig(sub(p[d]!, dim.min));
    if (rel < 0n || rel >= toBig(dim.len)) return undefined;
    off += Number(rel) * stride;
    stride *= Number(dim.len);
  }
  return out.data[off];
}

/**
 * The binary's result for one input against the reference's Outcome. `ok` says whether
 * the backend behaved correctly: equal values on the window, the same stuck state, or a confirmed
 * overflow. A reference that ran out of budget or raced gives no verdict.
 */
export function backendVerdict(reference: Outcome, binary: BinaryResult, window: Input['window']): BackendVerdict {
  const v = judge(reference, binary, window);
  return { ...v, rule: v.kind === 'overflow' ? 'C-OVERFLOW-CONFIRM' : 'C-VERDICT' };
}

function judge(reference: Outcome, binary: BinaryResult, window: Input['window']): BackendVerdictBody {
  if (reference.kind === 'stuck' && (reference.stuck.kind === 'budget-exceeded' || reference.stuck.kind === 'data-race')) {
    return { kind: 'inconclusive', ok: true, message: `the reference gave no result (${reference.stuck.kind})` };
  }
  if (binary.kind !== 'ran') return { kind: 'binary-failed', ok: false, binary: binary.kind, message: binary.message };
  if (binary.status === 'overflow') {
    const confirmed = overflowConfirmed(binary);
    return { kind: 'overflow', ok: confirmed, confirmed, message: binary.message ?? 'integer overflow' };
  }
  if (reference.kind === 'stuck') {
    const kind = reference.stuck.kind;
    const want = STUCK_STATUS[kind];
    const got = binary.status === 'ok' ? 'none' : binary.status;
    return { kind: 'stuck', ok: want === got, reference: kind, binary: got, message: binary.message ?? 'the binary finished normally' };
  }
  if (binary.status === 'allocFailed' || binary.status === 'unsupportedIsa') {
    return { kind: 'inconclusive', ok: true, message: binary.message ?? binary.status };
  }
  if (binary.status !== 'ok' || !binary.output) {
    return { kind: 'stuck', ok: false, reference: 'done', binary: binary.status, message: binary.message ?? binary.status };
  }
  const pts = windowPoints(window);
  for (let k = 0; k < pts.length; k++) {
    const expected = referenceAt(reference.output, pts[k]!);
    const actual = binary.output.window[k];
    if (expected !== actual) return { kind: 'differs', ok: false, point: pts[k]!, expected, actual };
  }
  return { kind: 'equal', ok: true, compared: pts.length };
}

/** One line per verdict, as `refsem validate` prints it. */
export function showBackendVerdict(v: BackendVerdict): string {
  const show = (x: Value | undefined) => (x === undefined ? 'outside the allocation' : showValue(x));
  switch (v.kind) {
    case 'equal':
      return v.compared === 0 ? 'vacuous: the window is empty, nothing was compared' : `equal on ${v.compared} point${v.compared === 1 ? '' : 's'}`;
    case 'differs':
      return `differs at (${v.point.join(', ')}): reference ${show(v.expected)}, binary ${show(v.actual)}`;
    case 'overflow':
      return `overflow (${v.confirmed ? 'confirmed: the exact value exceeds 64 bits' : 'NOT confirmed by the reference'}): ${v.message}`;
    case 'stuck': {
      if (v.ok) return `${v.binary} (agrees with the reference's ${v.reference}): ${v.message}`;
      const unchecked = v.binary === 'none' && ['oob-read', 'oob-write', 'unallocated'].includes(v.reference);
      return `status mismatch: reference ${v.reference}, binary ${v.binary}: ${v.message}${unchecked ? ' (unchecked builds do not check ranges: validate with --checked)' : ''}`;
    }
    case 'binary-failed':
      return `${v.binary}: ${v.message}`;
    case 'inconclusive':
      return `inconclusive: ${v.message}`;
  }
}

export type Backend = 'c' | 'simd';

export interface BackendCheckOptions extends ToolchainOptions {
  readonly backend: Backend;
  readonly faults?: CodegenFaults;
  /** SIMD backend: which vector code (default auto). */
  readonly simd?: Exclude<SimdMode, 'none'>;
  /** Step budget of the reference per input. */
  readonly maxSteps?: number;
  /** A user's C implementation of the ABI instead of the emitted code. */
  readonly impl?: string;
  /** Compiles run at once for a batch (default: one per core). */
  readonly jobs?: number;
}

/** The reference outcome, or a UserError's message when the reference refuses the input. */
function reference(t: TgtProgram, inputs: readonly Input[], maxSteps: number | undefined): (Outcome | string)[] {
  const c = compileTgt(t);
  return inputs.map((z) => {
    try {
      return c.run(z, maxSteps === undefined ? {} : { maxSteps });
    } catch (e) {
      if (e instanceof UserError) return e.message;
      throw e;
    }
  });
}

/**
 * `validateBatch`: the hook for campaigns. Every completed program is compiled into one binary,
 * run on its inputs, and judged against the reference; one verdict per (program, input). An item's
 * own `emit` options (e.g. planted faults) override the backend's.
 */
export async function validateBatch(items: readonly BatchItem[], opts: BackendCheckOptions): Promise<BackendVerdict[][]> {
  const emit = { simd: opts.backend === 'c' ? ('none' as const) : (opts.simd ?? 'auto'), ...(opts.faults ? { faults: opts.faults } : {}) };
  const bin = await compileAndRun(
    items.map((it) => ({ t: it.t, inputs: it.inputs, emit: { ...emit, ...it.emit } })),
    opts,
  );
  return judgeBatch(items, bin, opts.maxSteps);
}

/** Verdicts for the results of `compileAndRun(items)`, computing the reference for each input. */
export function judgeBatch(items: readonly BatchItem[], bin: readonly BinaryResult[], maxSteps?: number): BackendVerdict[][] {
  let k = 0;
  return items.map((it) => {
    const parallel = someStmt(it.t.body, (s) => s.k === 'for' && s.trav === 'parallel');
    const refs = reference(it.t, it.inputs, maxSteps);
    return it.inputs.map((z, i): BackendVerdict => {
      const r = refs[i]!;
      const b = bin[k++]!;
      if (typeof r === 'string') return { kind: 'inconclusive', ok: true, message: `the reference refused the input: ${r}` };
      const v = { ...backendVerdict(r, b, z.window), ...(b.kind === 'ran' && b.ran !== undefined ? { ran: b.ran } : {}) };
      // Parallel iterations may run in any order; when two of them fail differently, the
      // reference's order and OpenMP's may meet different failures first. Both are outcomes.
      if (v.kind === 'stuck' && !v.ok && v.reference !== 'done' && v.binary !== 'none' && parallel) {
        return { kind: 'inconclusive', ok: true, message: `another iteration order of a parallel loop: ${showBackendVerdict(v)}` };
      }
      return v;
    });
  });
}

/** `validateBackend`: one completed program on several inputs. */
export async function validateBackend(t: TgtProgram, inputs: readonly Input[], opts: BackendCheckOptions): Promise<BackendVerdict[]> {
  return (await validateBatch([{ t, inputs }], opts))[0]!;
}
