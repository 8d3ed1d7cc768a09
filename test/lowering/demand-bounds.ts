// A correct completion of 𝓛(P) for one input z, found without a bounds engine (test utility for
// lemma 2.12). It walks the funcs from the output back to the first, and each func's stages from
// the last back to the first, and for each stage:
//   - its compute box in each pure dimension is the projection of the points whose value after
//     that stage is needed (the window for the output's final stage; consumers' reads for other
//     funcs' final stages; for stage i−1, everything stage i needs plus what stage i reads of it);
//   - it visits every iteration the target will run over that box (pure loops × rdom loops) and
//     evaluates the stage's predicate, coordinates and value with the algorithm's point evaluator
//     answering reads of other funcs, recording each point read and written.
// A func's allocation is the bounding box of everything needed, read or written. Reads are
// recorded whatever the predicate says, which only enlarges boxes. The result is a constant
// completion, correct for this z (any completion evaluating to these boxes at z runs the same).
//
// Where the point evaluator cannot stand in for the target's buffer — a self-reference whose value
// feeds a coordinate — or where no completion can exist (an error value as a coordinate, or an
// rdom bound that is an error), the utility returns undefined and the caller skips the case.
import { type Expr, cst, holeKey, walkExpr } from '../../src/expr/ast.js';
import { evalExpr } from '../../src/expr/eval.js';
import { add, mul, sub } from '../../src/expr/ops.js';
import { E_MEM, type Int, type Value, isError } from '../../src/expr/value.js';
import type { Func, Input, Pipeline, Stage } from '../../src/alg-semantics/ast.js';
import { makePointEvaluator } from '../../src/alg-semantics/fast-eval.js';
import { forEachPoint } from '../../src/expr/window.js';
import { outputFunc } from '../../src/alg-semantics/input.js';
import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { holesOf } from '../../src/target-semantics/holes.js';

/** A bounding box: per dimension an inclusive [lo, hi], or undefined while empty. */
type Box = (readonly [Int, Int] | undefined)[];

const emptyBox = (n: number): Box => new Array(n).fill(undefined);

function addPoint(b: Box, c: readonly Int[]): void {
  c.forEach((v, d) => {
    const cur = b[d];
    b[d] = cur === undefined ? [v, v] : [v < cur[0] ? v : cur[0], v > cur[1] ? v : cur[1]];
  });
}

function addBox(b: Box, o: Box): void {
  o.forEach((iv, d) => {
    if (iv) {
      const cur = b[d];
      b[d] = cur === undefined ? iv : [iv[0] < cur[0] ? iv[0] : cur[0], iv[1] > cur[1] ? iv[1] : cur[1]];
    }
  });
}

/** (min, len) of one dimension of a box; an empty dimension is (0, 0). */
function interval(b: Box, d: number): [Int, Int] {
  const iv = b[d];
  return iv === undefined ? [0, 0] : [iv[0], add(sub(iv[1], iv[0]), 1)];
}

class Unsupported extends Error {}

/** Boxes larger than this (points) make the case too big to run; the caller skips it. */
const MAX_BOX = 20_000;

function size(ivs: readonly (readonly [Int, Int])[]): Int {
  return ivs.reduce<Int>((n, [, l]) => mul(n, l), 1);
}

/** A self-reference whose value decides a coordinate: the point evaluator cannot stand in for it. */
function selfValueUsedAsCoordinate(f: Func, u: Stage): boolean {
  let bad = false;
  const selfInside = (e: Expr) => walkExpr(e, (x) => {
    if (x.k === 'access' && x.func === f.name) bad = true;
  });
  u.lhs.forEach(selfInside);
  for (const e of [u.rhs, u.pred, ...u.lhs]) {
    walkExpr(e, (x) => {
      if (x.k === 'access') x.args.forEach(selfInside);
    });
  }
  return bad;
}

function ints(vals: readonly Value[]): Int[] {
  if (vals.some(isError)) throw new Unsupported('an error value used as a coordinate');
  return vals as Int[];
}

export interface DemandBounds {
  readonly gamma: Map<string, Expr>;
  /** Compute boxes by func and stage, allocation boxes by func (for tests that inspect them). */
  readonly cpu: Map<string, [Int, Int][][]>;
  readonly mem: Map<string, [Int, Int][]>;
}

/** A completion of `t = lower(p)` that is correct for input z, or undefined (see above). */
export function demandBounds(p: Pipeline, t: TgtProgram, input: Input): DemandBounds | undefined {
  try {
    return compute(p, t, input);
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
}

function compute(p: Pipeline, t: TgtProgram, input: Input): DemandBounds {
  const value = makePointEvaluator(p, input.params);
  const params = new Map<string, Value>(input.params);
  // needFinal: points of each func's final stage read by consumers (or in the window).
  const needFinal = new Map<string, Box>(p.funcs.map((f) => [f.name, emptyBox(f.vars.length)]));
  const out = outputFunc(p);
  const win = needFinal.get(out.name)!;
  input.window.forEach(([m, l], d) => {
    if (l > 0) win[d] = [m, sub(add(m, l), 1)];
  });
  const cpu = new Map<string, [Int, Int][][]>();
  const mem = new Map<string, [Int, Int][]>();
  for (const f of [...p.funcs].reverse()) {
    const n = f.vars.length;
    const memBox = emptyBox(n);
    const need: Box[] = f.stages.map(() => emptyBox(n));
    need[f.stages.length - 1] = needFinal.get(f.name)!;
    const stageBoxes: [Int, Int][][] = [];
    for (let i = f.stages.length - 1; i >= 0; i--) {
      const u = f.stages[i]!;
      if (selfValueUsedAsCoordinate(f, u)) throw new Unsupported('self-reference in a coordinate');
      const box = need[i]!;
      addBox(memBox, box);
      if (i > 0) addBox(need[i - 1]!, box);
      stageBoxes[i] = f.vars.map((_, d) => interval(box, d));
      // The target's iteration space of this stage: pure dimensions over the box, rdom loops inside.
      const pure = u.lhs.map((e, d) => e.k === 'var' && e.name === f.vars[d]);
      const rdom = u.rdom.map((r) => {
        const [m, l] = ints([evalExpr(r.min, params), evalExpr(r.len, params)]);
        return [m, l < 0 ? 0 : l] as [Int, Int];
      });
      const space = [...f.vars.flatMap((_, d) => (pure[d] ? [interval(box, d)] : [])), ...rdom];
      if (size(space) > MAX_BOX) throw new Unsupported('iteration space too large');
      const names = [...f.vars.filter((_, d) => pure[d]), ...u.rdom.map((r) => r.name)];
      const access = (g: string, args: readonly Value[]): Value => {
        const c = ints(args);
        if (g === f.name) {
          addPoint(need[i - 1]!, c);
          addPoint(memBox, c);
        } else addPoint(needFinal.get(g)!, c);
        return g === f.name ? E_MEM : value(g, c);
      };
      forEachPoint(space, (c) => {
        const env = new Map(params);
        names.forEach((v, k) => env.set(v, c[k]!));
        evalExpr(u.pred, env, { access });
        evalExpr(u.rhs, env, { access });
        addPoint(memBox, ints(u.lhs.map((e) => evalExpr(e, env, { access }))));
      });
    }
    cpu.set(f.name, stageBoxes);
    mem.set(f.name, f.vars.map((_, d) => interval(memBox, d)));
    if (size(mem.get(f.name)!) > MAX_BOX) throw new Unsupported('allocation too large');
  }
  const gamma = new Map<string, Expr>();
  for (const h of holesOf(t)) {
    const f = p.funcs.find((g) => g.name === h.func)!;
    const d = f.vars.indexOf(h.dim);
    const iv = h.kind === 'mem' ? mem.get(f.name)![d]! : cpu.get(f.name)![h.stage ?? f.stages.length - 1]![d]!;
    gamma.set(holeKey(h), cst(h.end === 'min' ? iv[0] : iv[1]));
  }
  return { gamma, cpu, mem };
}
