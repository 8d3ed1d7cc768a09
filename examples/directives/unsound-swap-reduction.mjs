// DELIBERATELY UNSOUND — a test subject for the fuzzers, not a directive to use.
//
// `swap-any OUTER` exchanges a loop with the loop immediately inside it. The built-in `swap`
// refuses two reduction loops ([SWAP-REDUCTION]): an update whose result depends on the order of
// its reduction domain (a Horner-style f(x) * 2 + r − s, a scan reading f(r − 1)) changes value
// when its loops are exchanged. This one forgets that check. `refsem check-directive` finds it on
// the order-sensitive reductions campaigns generate.
export default (api) => {
  function swapped(t, a, ctx) {
    const outer = api.resolveLoop(t, a.loop);
    const nest = api.nestedLoop(outer.stmt);
    if (!nest || nest.wrappers.length > 0) ctx.reject('SWAP-ANY', `no loop immediately inside ${a.loop}`, 'name a loop whose body is a loop');
    const inner = nest.inner;
    return api.replaceAt(t, outer.path, (s) => ({ ...inner, body: { ...s, body: inner.body } }));
  }
  return api.defineDirective({
    name: 'swap-any',
    phase: 'loops',
    summary: 'UNSOUND: exchange two nested loops, reduction loops included',
    params: [{ name: 'loop', type: 'loop' }],
    validate(t, a, ctx) {
      swapped(t, a, ctx);
    },
    apply: swapped,
    generate(t, rng, ctx) {
      // Prefer reduction loops: they are where this directive goes wrong.
      const loops = api.loopsOf(t).filter((l) => api.nestedLoop(l.stmt)?.wrappers.length === 0);
      const reduction = loops.filter((l) => !api.isPure(t, l.stmt.var));
      const cands = (reduction.length > 0 ? reduction : loops).map((l) => ({ loop: l.stmt.var }));
      return api.firstValid(rng, cands, (c) => ctx.valid(t, c));
    },
  });
};
