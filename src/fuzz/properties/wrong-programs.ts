// Programs that must go wrong: target programs built to race (iterations updating one point, or
// one iteration reading what another writes), to write or read outside their allocation (at either
// edge of any dimension of a 1-D or 2-D buffer), to read memory nothing wrote (the error value then
// flowing through an operator, in any argument position: def. 2.6, no operator short-circuits), to
// touch a func before it is allocated, or to compute one wrong value, each checked on both executors (the fast executor and the machine of fig. 2.8)
// and, for the wrong value, by the comparison of defs. 2.2–2.3. The soundness
// properties only ever run programs that should behave; without this one, an executor that stopped
// detecting races or stopped producing ε_mem would pass every campaign.
import fc from 'fast-check';
import { E_MEM, type Int, type Value, int, isError } from '../../expr/value.js';
import { add } from '../../expr/ops.js';
import { type OpName, OP_ARITY, cst, op, vr } from '../../expr/ast.js';
import { printExpr } from '../../expr/print.js';
import { compareOutputs } from '../../lowering/equivalence.js';
import type { Input } from '../../alg-semantics/ast.js';
import type { TgtProgram } from '../../target-semantics/ast.js';
import { execTgt } from '../../target-semantics/exec.js';
import { runMachine } from '../../target-semantics/machine.js';
import type { Outcome } from '../../target-semantics/outcome.js';
import { showOutcome } from '../../target-semantics/display.js';
import { parseTgt } from '../../target-semantics/parse.js';
import { printTgt } from '../../target-semantics/print.js';
import { PASS, type CheckResult, type Property } from '../property.js';

/** What the program is built to do wrong, and so what both executors must report. */
export const WRONGS = ['data-race', 'oob-write', 'oob-read', 'unwritten-read', 'unallocated', 'wrong-value'] as const;
export type Wrong = (typeof WRONGS)[number];

export interface WrongGen {
  readonly wrong: Wrong;
  /** window minimum and length of the output (length ≥ 1) */
  readonly min: number;
  readonly len: number;
  /** iterations of the racing loop (≥ 2), how far past the end an access goes (≥ 1), a constant */
  readonly k: number;
  readonly past: number;
  readonly c: number;
  /** the helper buffer's rank, the dimension an access leaves and at which edge (below 0 or past the end) */
  readonly rank: 1 | 2;
  readonly dim: number;
  readonly low: boolean;
  /** a race of one iteration reading the point the previous one writes, not an update of one point */
  readonly shift: boolean;
  /**
   * The operators the unwritten value flows through, innermost first: each an index into FLOW_OPS
   * and the argument position the value takes (a chain, so one case passes it through several).
   */
  readonly flow: readonly (readonly [number, number])[];
  /** more programs checked in the same check (a batch: a program costs well under a millisecond) */
  readonly more?: readonly WrongGen[];
}

/** Operators an error value read from memory flows through; 'id' is the read alone. */
const FLOW_OPS: readonly (OpName | 'id')[] = ['id', ...(Object.keys(OP_ARITY) as OpName[])];

/** `g[n − 1]` (never written) passed up the drawn operators, their other arguments constants. */
function flowOf(g: WrongGen, n: number): string {
  const e = g.flow.reduce((inner, [k, pos]) => {
    const o = FLOW_OPS[k % FLOW_OPS.length]!;
    if (o === 'id') return inner;
    const arity = OP_ARITY[o];
    return op(o, ...Array.from({ length: arity }, (_, i) => (i === pos % arity ? inner : cst(int(g.c + i)))));
  }, vr('unwritten_read'));
  return printExpr(e, 'tgt').replace('unwritten_read', `g[${n - 1}]`);
}

/** A coordinate tuple of the rank-r helper buffer of n points a side, leaving it in dimension `dim`. */
function outside(g: WrongGen, n: number): string {
  const d = g.dim % g.rank;
  return Array.from({ length: g.rank }, (_, i) => (i !== d ? `${n - 1}` : g.low ? `${-g.past}` : `${n - 1 + g.past}`)).join(', ');
}

/** The helper buffer g of n points a side, every point written. */
function helper(g: WrongGen, n: number): string {
  if (g.rank === 1) return `  allocate g(x in (0, ${n}));\n  for g.s0.x in (0, ${n}) do g[g.s0.x] <- g.s0.x * ${g.c};\n`;
  return `  allocate g(x in (0, ${n}), y in (0, ${n}));\n  for g.s0.y in (0, ${n}) do for g.s0.x in (0, ${n}) do g[g.s0.x, g.s0.y] <- g.s0.x * ${g.c} + g.s0.y;\n`;
}

export interface WrongCase {
  readonly wrong: Wrong;
  readonly program: TgtProgram;
  readonly input: Input;
  readonly more?: readonly WrongCase[];
}

/** The program text of each kind, over output `o` with window (x.min, x.len) and a helper buffer `g` of n points. */
function source(g: WrongGen): string {
  const head = 'pipeline o(; x in (x.min, x.len)):\n{\n  allocate o(x in (x.min, x.len));\n';
  const n = g.k + 1;
  switch (g.wrong) {
    case 'data-race':
      // Iteration r reads g[r], which iteration r − 1 writes: a race whichever runs first.
      if (g.shift) return `${head}${helper({ ...g, rank: 1 }, n)}  for parallel g.s1.r in (0, ${g.k}) do g@s1[g.s1.r + 1] <- g@s1[g.s1.r];\n  for o.s0.x in (x.min, x.len) do o[o.s0.x] <- ${g.c}\n}`;
      // k parallel iterations update one point of o.
      return `${head}  for o.s0.x in (x.min, x.len) do o[o.s0.x] <- ${g.c};\n  for parallel o.s1.r in (0, ${g.k}) do o@s1[x.min] <- o@s1[x.min] + o.s1.r\n}`;
    case 'oob-write':
      if (g.rank === 2) return `${head}${helper(g, n)}  g[${outside(g, n)}] <- ${g.c};\n  for o.s0.x in (x.min, x.len) do o[o.s0.x] <- ${g.c}\n}`;
      return `${head}  for o.s0.x in (x.min, x.len + ${g.past}) do o[o.s0.x] <- ${g.c}\n}`;
    case 'oob-read':
      return `${head}${helper(g, n)}  for o.s0.x in (x.min, x.len) do o[o.s0.x] <- g[${outside(g, n)}]\n}`;
    case 'unwritten-read':
      // g's last point is never written; reading it yields ε_mem, which every operator passes on
      // to the output.
      return `${head}  allocate g(x in (0, ${n}));\n  for g.s0.x in (0, ${n - 1}) do g[g.s0.x] <- ${g.c};\n  for o.s0.x in (x.min, x.len) do o[o.s0.x] <- ${flowOf(g, n)}\n}`;
    case 'wrong-value':
      // Every point is c except the window's last, which is c + 1: the comparison with an
      // algorithm that is c everywhere must find the last point (verdicts compare every point).
      return `${head}  for o.s0.x in (x.min, x.len) do o[o.s0.x] <- select(o.s0.x == x.min + x.len - 1, ${g.c + 1}, ${g.c})\n}`;
    case 'unallocated':
      // g is written before it is allocated (σ is flat, spec/target.md "Scoping": an allocation
      // lasts once made, so only an access before any allocation is unallocated).
      return `${head}  g[0] <- ${g.c};\n  allocate g(x in (0, ${n}));\n  for o.s0.x in (x.min, x.len) do o[o.s0.x] <- ${g.c}\n}`;
  }
}

/** Does an outcome show the wrong it was built for? */
function reported(c: WrongCase, o: Outcome): boolean {
  if (c.wrong === 'unwritten-read') return o.kind === 'done' && o.output.data.length > 0 && o.output.data.every((v) => isError(v) && v === E_MEM);
  if (c.wrong === 'wrong-value') {
    // The algorithm's values: the constant every point but the last holds.
    const [[min, len]] = c.input.window as [[Int, Int]];
    const first = o.kind === 'done' ? o.output.data[0] : undefined;
    const alg = { func: 'o', window: [[min, len] as [Int, Int]], values: Array.from({ length: Number(len) }, () => first as Value) };
    const v = o.kind === 'done' ? compareOutputs(alg, o, c.input.window) : undefined;
    return Number(len) === 1 ? v?.kind === 'equal' || v?.kind === 'differs' : v?.kind === 'differs' && v.point[0] === add(min, Number(len) - 1);
  }
  return o.kind === 'stuck' && o.stuck.kind === c.wrong;
}

/** Machine steps allowed: the programs are a few dozen steps long. */
const MACHINE_STEPS = 20_000;

/**
 * Programs per check. One costs well under a millisecond, while the campaign gives this property
 * one check in a dozen or so: a single program per check left a rare wrong — an error value lost
 * in one operator, in one argument position — unbuilt in a minute's campaign. A failure shrinks to
 * the programs that fail.
 */
const BATCH = 16;

const arbOne: fc.Arbitrary<WrongGen> = fc.record({
  wrong: fc.constantFrom(...WRONGS),
  min: fc.integer({ min: -3, max: 3 }),
  len: fc.integer({ min: 1, max: 4 }),
  k: fc.integer({ min: 2, max: 5 }),
  past: fc.integer({ min: 1, max: 3 }),
  c: fc.integer({ min: -9, max: 9 }),
  rank: fc.constantFrom<1 | 2>(1, 2),
  dim: fc.integer({ min: 0, max: 1 }),
  low: fc.boolean(),
  shift: fc.boolean(),
  flow: fc.array(fc.tuple(fc.nat({ max: FLOW_OPS.length - 1 }), fc.nat({ max: 2 })), { minLength: 1, maxLength: 3 }),
});

const one = (g: WrongGen): WrongCase => ({ wrong: g.wrong, program: parseTgt(source(g), '<wrong program>'), input: { window: [[int(g.min), int(g.len)]], params: new Map() } });

function checkOne(c: WrongCase): CheckResult {
  const runs = [['fast executor', execTgt(c.program, c.input)], ['machine', runMachine(c.program, c.input, { maxSteps: MACHINE_STEPS })]] as const;
  for (const [who, o] of runs) {
    if (!reported(c, o)) return { status: 'fail', verdict: `${c.wrong}-unreported`, expected: `the ${who} reports ${c.wrong}`, actual: showOutcome(o) };
  }
  return PASS;
}

type OneText = { target: string; window: [string, string][]; wrong: Wrong };
const encodeOne = (c: WrongCase): OneText => ({ target: printTgt(c.program), window: c.input.window.map(([m, l]) => [m.toString(), l.toString()]), wrong: c.wrong });
const decodeOne = (t: OneText): WrongCase => ({
  wrong: t.wrong,
  program: parseTgt(t.target, '<reproducer target>'),
  input: { window: t.window.map(([m, l]) => [int(BigInt(m)), int(BigInt(l))] as const), params: new Map() },
});

export const wrongPrograms: Property<WrongGen, WrongCase> = {
  name: 'wrong-programs',
  summary: 'programs built to race, to access outside their allocation, to read unwritten memory or to use a func before allocating it are reported as such by both executors (fig. 2.8, thm. 2.1)',
  // A batch: the first program and the rest; shrinking may drop any of them, the first included.
  arbitrary: () => fc.array(arbOne, { minLength: 1, maxLength: BATCH, size: 'max' }).map(([g, ...more]) => (more.length > 0 ? { ...g!, more } : g!)),
  concretize: (g) => ({ ...one(g), ...(g.more?.length ? { more: g.more.map(one) } : {}) }),
  check(c): CheckResult {
    for (const x of [c, ...(c.more ?? [])]) {
      const r = checkOne(x);
      if (r.status !== 'pass') return r;
    }
    return PASS;
  },
  encode: (c) => {
    const first = encodeOne(c);
    return { target: first.target, input: { window: first.window, params: {} }, extra: { wrong: c.wrong, ...(c.more?.length ? { more: JSON.stringify(c.more.map(encodeOne)) } : {}) } };
  },
  decode: (t) => {
    const first = decodeOne({ target: t.target ?? '', window: (t.input?.window ?? []).map(([m, l]) => [m, l]), wrong: t.extra?.wrong as Wrong });
    const more = t.extra?.more !== undefined ? (JSON.parse(t.extra.more) as OneText[]).map(decodeOne) : [];
    return more.length > 0 ? { ...first, more } : first;
  },
  shape: (c) => [c, ...(c.more ?? [])].map((x) => x.wrong).join(' '),
};
