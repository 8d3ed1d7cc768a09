// A user directive: `tile OUTER, INNER by E_OUTER, E_INNER` tiles two immediately nested loops,
// as a composition of built-ins — split both loops (guard tail), then swap so that both outer
// loops enclose both inner ones:
//
//   for y: for x: s   ⟶   for yo: for xo: for yi: for xi: s   (with the splits' lets and guards)
//
// Load it with `--directive examples/directives/tile.mjs`. It imports nothing: the helpers
// arrive as `api` (spec/schedule.md, "Writing a directive").
export default (api) => {
  const plain = (v) => v.slice(v.lastIndexOf('.') + 1);
  const prefix = (v) => v.slice(0, v.lastIndexOf('.') + 1);

  /** The two loops, checked to be immediately nested. */
  function loops(t, a, ctx) {
    if (a.loops.length !== 2) ctx.reject('TILE', `tile takes two loops (outer, inner), not ${a.loops.length}`);
    if (a.factors.length !== 2) ctx.reject('TILE', `tile takes two factors, not ${a.factors.length}`);
    const outer = api.resolveLoop(t, a.loops[0]);
    const inner = api.resolveLoop(t, a.loops[1]);
    if (api.nestedLoop(outer.stmt)?.inner.var !== inner.stmt.var) {
      ctx.reject('TILE', `${inner.stmt.var} is not immediately inside ${outer.stmt.var}`, 'tile names two immediately nested loops, outer first');
    }
    return [outer.stmt.var, inner.stmt.var];
  }

  function steps(t, a, ctx) {
    const [y, x] = loops(t, a, ctx);
    t = ctx.run(t, 'split', { loop: x, names: [`${plain(x)}o`, `${plain(x)}i`], factor: a.factors[1] });
    t = ctx.run(t, 'split', { loop: y, names: [`${plain(y)}o`, `${plain(y)}i`], factor: a.factors[0] });
    return ctx.run(t, 'swap', { loop: `${prefix(y)}${plain(y)}i` });
  }

  return api.defineDirective({
    name: 'tile',
    phase: 'loops',
    summary: 'tile two nested loops by two factors (split, split, swap)',
    params: [
      { name: 'loops', type: 'loops' },
      { name: 'factors', type: 'exprs', key: 'by' },
    ],
    // Validity is that of the steps: run them on the program and discard the result.
    validate(t, a, ctx) {
      steps(t, a, ctx);
    },
    apply: steps,
    generate(t, rng, ctx) {
      const cands = [];
      for (const l of api.loopsOf(t)) {
        const inner = api.nestedLoop(l.stmt)?.inner;
        if (!inner) continue;
        for (const [e1, e2] of [[2, 2], [2, 3], [3, 1], [4, 2]]) {
          cands.push({ loops: [l.stmt.var, inner.var], factors: [api.cst(e1), api.cst(e2)] });
        }
      }
      return api.firstValid(rng, cands, (c) => ctx.valid(t, c));
    },
  });
};
