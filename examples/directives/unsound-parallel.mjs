// DELIBERATELY UNSOUND — a test subject for the fuzzers, not a directive to use.
//
// `parallel-any LOOP` marks any loop parallel. The built-in `traverse LOOP parallel` accepts only
// pure loops (def. 2.16, rule [TRAVERSE-PURE]); this one forgets that check, so it also
// parallelizes reduction loops, whose iterations update the same points of the func in an order
// that matters. The executor reports such runs as data races, and `refsem fuzz --directive
// examples/directives/unsound-parallel.mjs` should find a counterexample quickly (any update stage
// whose rdom loop writes one point, e.g. a sum over r into f(x)).
export default (api) =>
  api.defineDirective({
    name: 'parallel-any',
    phase: 'loops',
    summary: 'UNSOUND: parallelize any loop, reduction loops included',
    params: [{ name: 'loop', type: 'loop' }],
    validate(t, a) {
      api.resolveLoop(t, a.loop); // the loop must exist — and nothing else is checked
    },
    apply(t, a) {
      const l = api.resolveLoop(t, a.loop);
      return api.replaceAt(t, l.path, (s) => ({ ...s, trav: 'parallel' }));
    },
    generate(t, rng) {
      // Prefer reduction loops: they are where this directive goes wrong.
      const loops = api.loopsOf(t);
      const reduction = loops.filter((l) => !api.isPure(t, l.stmt.var));
      const l = api.pick(rng, reduction.length > 0 ? reduction : loops);
      return l ? { loop: l.stmt.var } : undefined;
    },
  });
