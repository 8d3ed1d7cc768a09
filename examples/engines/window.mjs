// A bounds engine plug-in (spec/bounds.md, "Engines and plug-ins"): it fills every hole with the
// output window, widened by MARGIN points on each side. It imports nothing: refsem checks what it
// returns. Wrong whenever a func is read further than MARGIN points outside the window, which
// `refsem bounds --verify` and `refsem exec --compare` show.
const MARGIN = 0;

export default {
  name: 'window',
  complete(t, q) {
    if (t.window.length === 0) return { ok: false, explanation: 'the output has no dimensions' };
    const completion = {};
    for (const { key, hole } of q.holes) {
      const w = t.window.find((d) => d.dim === hole.dim) ?? t.window[0];
      completion[key] = hole.end === 'min' ? `${w.min} - ${MARGIN}` : `${w.len} + ${2 * MARGIN}`;
    }
    return { ok: true, completion };
  },
};
