// reorder(ℓ1, …, ℓn): a convenience that puts loops of one nest in the given order, outermost
// first, by a sequence of swaps (§2.8.2); every swap is checked as if written by hand. Loops of the
// nest that are not listed keep their positions.
import type { TgtProgram } from '../target-semantics/ast.js';
import { type LoopInfo, loopsOf } from '../target-semantics/walk.js';
import { firstValid, nestedLoop, resolveLoop, shuffled } from './loops.js';
import { type Directive, type DirectiveCtx, accepts, defineDirective } from './plugin.js';


export interface ReorderArgs {
  /** Outermost first. */
  readonly loops: readonly string[];
}

/** The loop variables of the nest from the outermost listed loop down to the innermost one. */
function chainOf(listed: readonly LoopInfo[], ctx: DirectiveCtx): string[] {
  const byDepth = [...listed].sort((a, b) => a.path.length - b.path.length);
  const want = new Set(listed.map((l) => l.stmt.var));
  const chain: string[] = [];
  let cur = byDepth[0]!.stmt;
  for (;;) {
    chain.push(cur.var);
    want.delete(cur.var);
    if (want.size === 0) return chain;
    const next = nestedLoop(cur)?.inner;
    if (!next) {
      ctx.reject('REORDER-NEST', `${[...want].join(', ')} ${want.size > 1 ? 'are' : 'is'} not nested in ${chain.join(' / ')} through immediately nested loops`,
        'reorder permutes loops of a single perfect loop nest');
    }
    cur = next;
  }
}

/** The swaps (each naming the outer loop) that bubble-sort `chain` into the listed order. */
export function reorderSwaps(chain: readonly string[], listed: readonly string[]): string[] {
  const slots = new Set(listed);
  let k = 0;
  const target = chain.map((v) => (slots.has(v) ? listed[k++]! : v));
  const rank = new Map(target.map((v, i) => [v, i]));
  const cur = [...chain];
  const swaps: string[] = [];
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i + 1 < cur.length; i++) {
      if (rank.get(cur[i]!)! > rank.get(cur[i + 1]!)!) {
        swaps.push(cur[i]!);
        [cur[i], cur[i + 1]] = [cur[i + 1]!, cur[i]!];
        changed = true;
      }
    }
  }
  return swaps;
}

function plan(t: TgtProgram, a: ReorderArgs, ctx: DirectiveCtx): string[] {
  if (a.loops.length < 2) ctx.reject('REORDER-NEST', 'reorder needs at least two loops');
  const listed = a.loops.map((x) => resolveLoop(t, x));
  const vars = listed.map((l) => l.stmt.var);
  const dup = vars.find((v, i) => vars.indexOf(v) !== i);
  if (dup !== undefined) ctx.reject('REORDER-NEST', `loop ${dup} is listed twice`);
  return reorderSwaps(chainOf(listed, ctx), vars);
}

/** The program after the planned swaps, each run (and checked) as a `swap` step. */
function runSwaps(t: TgtProgram, a: ReorderArgs, ctx: DirectiveCtx): TgtProgram {
  return plan(t, a, ctx).reduce((cur, loop) => ctx.run(cur, 'swap', { loop }), t);
}

export const reorder: Directive<ReorderArgs> = defineDirective<ReorderArgs>({
  name: 'reorder',
  rule: 'REORDER',
  phase: 'loops',
  summary: 'order loops of one nest as listed (outermost first), by swaps',
  // Its swaps run as steps, and their obligations are gathered as such ([OBL-ROUTE]).
  obligations: () => [],
  params: [{ name: 'loops', type: 'loops' }],
  validate(t, a, ctx) {
    // Each swap is validated when it runs; here only the shape of the request.
    plan(t, a, ctx);
  },
  apply(t, a, ctx) {
    return runSwaps(t, a, ctx);
  },
  generate(t, rng, ctx) {
    const cands = loopsOf(t).flatMap((l) => {
      const chain: string[] = [];
      for (let cur: typeof l.stmt | undefined = l.stmt; cur; cur = nestedLoop(cur)?.inner) chain.push(cur.var);
      return chain.length < 2 || !l.name ? [] : [{ loops: shuffled(rng, chain) }];
    });
    return firstValid(rng, cands, (c) => ctx.valid(t, c) && accepts(() => runSwaps(t, c, ctx)));
  },
});
