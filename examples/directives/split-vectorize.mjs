// A user directive: `split-vectorize LOOP by WIDTH` splits a loop by a constant width (guard tail,
// so any stage may use it) and marks the inner loop for vectorization — the usual way to
// vectorize a loop whose extent is not itself a constant. Load it with
// `--directive examples/directives/split-vectorize.mjs`.
export default (api) => {
  function steps(t, a, ctx) {
    if (api.constValue(a.width) === undefined) {
      ctx.reject('SPLIT-VECTORIZE', `the width ${api.printExpr(a.width)} is not a constant`, 'vectorized loops need a constant extent');
    }
    const l = api.resolveLoop(t, a.loop);
    const v = l.name.v;
    const [o, i] = [api.inventName(t, l.name, `${v}o`), api.inventName(t, l.name, `${v}v`)];
    const split = ctx.run(t, 'split', { loop: l.stmt.var, names: [o, i], factor: a.width, tail: 'guard' });
    return ctx.run(split, 'vectorize', { loop: `${l.stmt.var.slice(0, l.stmt.var.lastIndexOf('.') + 1)}${i}` });
  }

  return api.defineDirective({
    name: 'split-vectorize',
    phase: 'loops',
    summary: 'split a loop by a constant width and vectorize the inner loop',
    params: [
      { name: 'loop', type: 'loop' },
      { name: 'width', type: 'expr', key: 'by' },
    ],
    // Valid exactly when its steps are: run them and discard the result.
    validate(t, a, ctx) {
      steps(t, a, ctx);
    },
    apply: steps,
    generate(t, rng, ctx) {
      const cands = api.loopsOf(t).flatMap((l) => [2, 4].map((w) => ({ loop: l.stmt.var, width: api.cst(w) })));
      return api.firstValid(rng, cands, (c) => ctx.valid(t, c));
    },
  });
};
