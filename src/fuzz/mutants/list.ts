// Mutants of refsem's own core (`npm run mutants`): plausible single mistakes, each planted in a
// scratch copy of the compiled build, to measure what the default campaign can see. Each entry is
// an exact snippet of a compiled module (it must occur exactly once; a test checks every one against
// the current build) and its replacement, with the real mistake it imitates.

export interface Mutant {
  readonly id: string;
  /** the source module the mistake is in */
  readonly source: string;
  /** the compiled module patched, relative to dist/ */
  readonly file: string;
  readonly find: string;
  readonly replace: string;
  readonly imitates: string;
}

// Assembled, so that this list does not count as code naming the rule (src/rules/rule-index.ts).
const STAGE_COVER = ['B', 'STAGE', 'COVER'].join('-');

export const MUTANTS: readonly Mutant[] = [
  { id: 'mod-js-sign', source: 'src/expr/ops.ts', file: 'expr/ops.js', find: 'return normNum(r < 0 ? r + Math.abs(b) : r);', replace: 'return normNum(r);', imitates: "the host language's remainder (sign of the dividend) for Euclidean mod" },
  { id: 'div-truncating', source: 'src/expr/ops.ts', file: 'expr/ops.js', find: 'const d = a - (r < 0 ? r + Math.abs(b) : r);', replace: 'const d = a - r;', imitates: 'truncating division for Euclidean div' },
  { id: 'lt-as-le', source: 'src/expr/ops.ts', file: 'expr/ops.js', find: 'export const lt = (a, b) => bool(a < b);', replace: 'export const lt = (a, b) => bool(a <= b);', imitates: 'an off-by-one comparison' },
  { id: 'gt-as-ge', source: 'src/expr/ops.ts', file: 'expr/ops.js', find: 'export const gt = (a, b) => bool(a > b);', replace: 'export const gt = (a, b) => bool(a >= b);', imitates: 'an off-by-one comparison' },
  { id: 'min-as-max', source: 'src/expr/ops.ts', file: 'expr/ops.js', find: 'export const min = (a, b) => (a < b ? a : b);', replace: 'export const min = (a, b) => (a > b ? a : b);', imitates: 'min and max confused' },
  { id: 'error-rank-inverted', source: 'src/expr/ops.ts', file: 'expr/ops.js', find: 'a.rank > worst.rank', replace: 'a.rank < worst.rank', imitates: 'the lesser error value winning (def. 2.6)' },
  { id: 'point-key-no-separator', source: 'src/alg-semantics/store.ts', file: 'alg-semantics/store.js', find: "export const pointKey = (c) => c.map(keyOf).join(',');", replace: "export const pointKey = (c) => c.map(keyOf).join('');", imitates: 'a memo key that joins coordinates without a separator: (1, 23) and (12, 3) collide' },
  { id: 'predicate-ignored', source: 'src/alg-semantics/fast-eval.ts', file: 'alg-semantics/fast-eval.js', find: 'if (pt.p !== 0 && !isError(pt.p) && pt.lhs.every((e) => !isError(e))) {', replace: 'if (!isError(pt.p) && pt.lhs.every((e) => !isError(e))) {', imitates: "an update's predicate not consulted by the algorithm evaluator" },
  { id: 'unwritten-is-zero', source: 'src/target-semantics/store.ts', file: 'target-semantics/store.js', find: 'this.data = new Array(size).fill(E_MEM);', replace: 'this.data = new Array(size).fill(0);', imitates: 'fresh allocations initialized to 0 instead of ε_mem' },
  { id: 'race-detection-off', source: 'src/target-semantics/store.ts', file: 'target-semantics/store.js', find: 'if (races.active) {', replace: 'if (false) {', imitates: 'data races not detected' },
  { id: 'bounds-check-off', source: 'src/target-semantics/store.ts', file: 'target-semantics/store.js', find: 'if (off < 0)', replace: 'if (off < -1)', imitates: 'out-of-bounds accesses not detected' },
  { id: 'exec-negative-extent', source: 'src/target-semantics/exec.ts', file: 'target-semantics/exec.js', find: "        if (len < 0)\n            throw stuckAt({ kind: 'rdom-failure'", replace: "        if (len < -1)\n            throw stuckAt({ kind: 'rdom-failure'", imitates: 'an extent of −1 run as an empty loop by the fast executor (§2.9)' },
  { id: 'machine-negative-extent', source: 'src/target-semantics/machine.ts', file: 'target-semantics/machine.js', find: "        if (len < 0)\n            throw new Stuck_({ kind: 'rdom-failure'", replace: "        if (len < -1)\n            throw new Stuck_({ kind: 'rdom-failure'", imitates: 'an extent of −1 run as an empty loop by the machine (§2.9)' },
  { id: 'rdom-order-reversed', source: 'src/lowering/lower.ts', file: 'lowering/lower.js', find: 'return rdom.reduce((body, r) => {', replace: 'return [...rdom].reverse().reduce((body, r) => {', imitates: 'reduction loops nested in the wrong order (r_1 outermost, §2.4.1)' },
  { id: 'compare-first-point', source: 'src/lowering/equivalence.ts', file: 'lowering/equivalence.js', find: 'if (!verdict && expected !== got) {', replace: 'if (!verdict && expected !== got && i === 1) {', imitates: 'a verdict that compares only the first point of the window' },
  { id: 'split-extent-floor', source: 'src/schedule/split.ts', file: 'schedule/split.js', find: "len: op('div', op('+', l, eMinus1), e)", replace: "len: op('div', l, e)", imitates: "a split's outer extent rounded down: the tail is dropped" },
  { id: 'split-guard-le', source: 'src/schedule/split.ts', file: 'schedule/split.js', find: "cond: op('<', vr(x), op('+', m, l))", replace: "cond: op('<', vr(x), op('+', op('+', m, l), cst(1)))", imitates: 'a guarded split whose guard is ≤' },
  { id: 'split-shift-max', source: 'src/schedule/split.ts', file: 'schedule/split.js', find: "op('min', base, op('-', op('+', m, l), e))", replace: "op('max', base, op('-', op('+', m, l), e))", imitates: 'a shifted tail computed with max instead of min' },
  { id: 'compute-at-unchecked', source: 'src/schedule/compute-at.ts', file: 'schedule/compute-at.js', find: 'const v = dominanceViolations(next, g)[0];', replace: 'const v = undefined;', imitates: 'compute-at without its dominance check (lemma 2.5)' },
  { id: 'store-at-unchecked', source: 'src/schedule/store-at.ts', file: 'schedule/store-at.js', find: "const v = dominanceViolations(next, a.func).find((x) => x.kind === 'alloc');", replace: 'const v = undefined;', imitates: 'store-at without its dominance check (lemma 2.5)' },
  { id: 'swap-reductions', source: 'src/schedule/swap.ts', file: 'schedule/swap.js', find: 'if (!isPure(t, l.stmt.var) && !isPure(t, inner.var)) {', replace: 'if (false) {', imitates: 'swap accepting two reduction loops ([SWAP-REDUCTION])' },
  { id: 'parallel-reductions', source: 'src/schedule/traverse.ts', file: 'schedule/traverse.js', find: "if (a.order === 'parallel' && !isPure(t, l.stmt.var)) {", replace: 'if (false) {', imitates: 'parallel traversal of reduction loops ([TRAVERSE-PURE])' },
  { id: 'beta0-last-requirement', source: 'src/bounds/beta0.ts', file: 'bounds/beta0.js', find: 'st.iv = st.iv ? hull(st.iv, iv) : iv;', replace: 'st.iv = iv;', imitates: 'a hole keeping only the last requirement instead of their hull ([BETA0-IN])' },
  { id: 'beta1-guard-side', source: 'src/bounds/beta0.ts', file: 'bounds/beta0.js', find: "const cut = side === 'hi' ? { lo: null, hi: biv.hi } : { lo: biv.lo, hi: null };", replace: "const cut = side === 'hi' ? { lo: null, hi: biv.lo } : { lo: biv.lo, hi: null };", imitates: "a guard's upper cut taken from the wrong end of its bound ([BETA1-GUARD])" },
  { id: 'interval-mul-corners', source: 'src/expr/interval.ts', file: 'expr/interval.js', find: 'return fromCorners(as.flatMap((x) => bs.map((y) => mulExt(x, y))));', replace: 'return fromCorners(as.flatMap((x) => bs.slice(0, 1).map((y) => mulExt(x, y))));', imitates: 'the interval of a product from two of its four corners (sign cases missed)' },
  { id: 'interval-sub-same-ends', source: 'src/expr/interval.ts', file: 'expr/interval.js', find: 'return { lo: a.lo && b.hi && subE(a.lo, b.hi), hi: a.hi && b.lo && subE(a.hi, b.lo) };', replace: 'return { lo: a.lo && b.lo && subE(a.lo, b.lo), hi: a.hi && b.hi && subE(a.hi, b.hi) };', imitates: "a difference's interval from like ends ([I-SUB] subtracts the opposite end)" },
  { id: 'interval-mul-negative-constant', source: 'src/expr/interval.ts', file: 'expr/interval.js', find: 'return c > 0 ? { lo: scale(o.lo), hi: scale(o.hi) } : { lo: scale(o.hi), hi: scale(o.lo) };', replace: 'return { lo: scale(o.lo), hi: scale(o.hi) };', imitates: 'a negative constant factor that does not flip the interval ([I-MUL])' },
  { id: 'interval-div-thesis-length', source: 'src/expr/interval.ts', file: 'expr/interval.js', find: "return m === null ? TOP : { lo: simplifyFresh(op('-', C(0), m)), hi: m };", replace: "return m === null ? TOP : { lo: simplifyFresh(op('-', C(0), m)), hi: simplifyFresh(op('-', m, C(1))) };", imitates: "fig. 2.10b's printed length 2M − 1 for a quotient by a divisor of unknown sign (spec/bounds.md corrects it)" },
  { id: 'interval-mod-full-magnitude', source: 'src/expr/interval.ts', file: 'expr/interval.js', find: 'return { lo: C(0), hi: maxE(subE(m, C(1)), C(0)) };', replace: 'return { lo: C(0), hi: maxE(subE(m, C(2)), C(0)) };', imitates: 'a remainder bounded by |b| − 2 instead of |b| − 1 ([I-MOD])' },
  { id: 'interval-max-lower-end', source: 'src/expr/interval.ts', file: 'expr/interval.js', find: 'return { lo: a.lo === null ? b.lo : b.lo === null ? a.lo : f(a.lo, b.lo), hi: a.hi && b.hi && f(a.hi, b.hi) };', replace: 'return { lo: a.lo === null ? b.lo : b.lo === null ? a.lo : f(a.lo, b.lo), hi: a.hi && b.hi && minE(a.hi, b.hi) };', imitates: "a max's upper end taken as the min of the upper ends ([I-MINMAX])" },
  { id: 'interval-select-then-only', source: 'src/expr/interval.ts', file: 'expr/interval.js', find: 'return hull(t, f);', replace: 'return t;', imitates: "a select's interval from its then branch only ([I-SELECT])" },
  { id: 'stage-cover-dropped', source: 'src/bounds/query.ts', file: 'bounds/query.js', find: `return and(parts, '${STAGE_COVER}');`, replace: 'return T;', imitates: 'the query forgetting that an update stage needs the previous stage over its bounds ([B-STAGE-COVER])' },
  { id: 'c-mod-truncating', source: 'src/codegen/emit-c.ts', file: 'codegen/emit-c.js', find: "this.faults.truncatingDiv ? 'rs_tmod' : 'rs_mod'", replace: "this.faults.truncatingDiv ? 'rs_tmod' : 'rs_tmod'", imitates: "C's truncating % emitted for Euclidean mod (§5.1)" },
];
