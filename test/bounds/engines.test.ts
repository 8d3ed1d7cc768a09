// Example tests for the query rules, β0 and its hints, β1's refinements, the lifted engine and the
// plug-in API (spec/bounds.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { lower } from '../../src/lowering/lower.js';
import { schedule } from '../../src/pipeline.js';
import { parseSchedule } from '../../src/schedule/parse.js';

import type { TgtProgram } from '../../src/target-semantics/ast.js';
import { parseTgt } from '../../src/target-semantics/parse.js';
import { printTgt } from '../../src/target-semantics/print.js';
import { UserError } from '../../src/diag.js';
import { BUILTIN_ENGINES, type BoundsEngine, completeProgram, defineBoundsEngine, runEngine } from '../../src/bounds/engine.js';
import { loadEngineModule } from '../../src/node/plugins.js';
import { checkConcrete } from '../../src/bounds/concrete-check.js';
import { withAssertions } from '../../src/bounds/completion.js';
import { extractQuery, printQuery } from '../../src/bounds/query.js';

const SEC22 = 'pipeline f() { func g(x) = x * x; func f(x) = g(x) + g(x + 1); }';
const alg = (src: string) => loadPipeline(src, 'test.alg');
const scheduled = async (src: string, sched: string): Promise<TgtProgram> => schedule(lower(alg(src)), parseSchedule(sched, 'test.sched'), alg(src));

/** The concrete (min, len) instances of every hole pair on window [min, min + len). */
function windows(t: TgtProgram, engine: BoundsEngine, min: number, len: number): Record<string, string> {
  const r = runEngine(t, engine);
  if (!r.ok) throw new Error(r.explanation);
  const tt = withAssertions(t, r.assertions ?? []);
  const rep = checkConcrete(tt, extractQuery(tt), r.completion, { window: [[min, len]], params: new Map() });
  expect(rep.holds).toBe(true);
  return Object.fromEntries([...rep.instances].map(([k, ivs]) => [k, ivs.map(([m, l]) => `[${m}, ${Number(m) + Number(l)})`).join(' ')]));
}

describe('query extraction 𝓑', () => {
  it('[B-STAGE-COVER] an update stage requires the previous stage to cover its compute bounds', () => {
    const q = printQuery(extractQuery(lower(alg('pipeline f() { func f(x) { 0; rdom(r = (0, 3)) in (r) <- 7; } }'))), { rules: true });
    expect(q).toMatch(/∀ f\.x ∈ \(\?cpu\.min\(f\.x\), \?cpu\.len\(f\.x\)\) : {3}\[B-STAGE-COVER\]\n\s+f\.x ∈ \?cpu f\.x@s0/);
  });
  it('[B-FOR] a hole-free extent is not the engine\'s concern; [B-ASSERT] guards what follows', () => {
    const t = parseTgt('pipeline f(n; x in (x.min, x.len)): { allocate f(x in (?mem.min(f.x), ?mem.len(f.x))); assert n > 0; label f: for f.x in (?cpu.min(f.x), ?cpu.len(f.x)) do for r in (0, n) do f[f.x] <- r }', 't.tgt');
    const q = printQuery(extractQuery(t));
    expect(q).toContain('!(?cpu.len(f.x) < 0)');
    expect(q).not.toContain('!(n < 0)');
    expect(q).toMatch(/n > 0 ⇒\n\s+∃ \?cpu f\.x :/);
  });
  it('[B-STORE-CARRIED] a scan requires its reads on every iteration: β1 left the first points of a scan uncomputed', () => {
    const scan = 'pipeline f() { func g(x) = x * 10; func f(x) { g(x); rdom(r = (1, 4)) in (r) <- f(r - 1) + f(r); } }';
    const q = printQuery(extractQuery(lower(alg(scan))), { rules: true });
    expect(q).not.toMatch(/f\.s1\.r ∈ \?cpu f\.x ⇒/);
    // The window asks for f(2) alone, which sums g(0), g(1) and g(2).
    expect(windows(lower(alg(scan)), BUILTIN_ENGINES.beta1!, 2, 1)['?cpu f.x@s0']).toBe('[0, 5)');
    // A histogram-like update, reading only the point it writes, keeps the antecedent.
    const hist = printQuery(extractQuery(lower(alg('pipeline f() { func g(x) = x; func f(x) { 0; rdom(r = (0, 3)) in (r) <- f(r) + g(r); } }'))), { rules: true });
    expect(hist).toMatch(/f\.s1\.r ∈ \?cpu f\.x ⇒ {3}\[B-STORE\]/);
  });
  it('refuses accesses to funcs that are never allocated', () => {
    const t = parseTgt('pipeline f(; x in (x.min, x.len)): { allocate f(x in (0, 1)); label f: f[0] <- h[0] }', 't.tgt');
    expect(() => extractQuery(t)).toThrow(UserError);
  });
});

describe('β0', () => {
  const beta0 = BUILTIN_ENGINES.beta0!;
  it('gives the bounds §2.2 states for the default schedule', () => {
    expect(windows(lower(alg(SEC22)), beta0, 0, 6)).toEqual({ '?mem g.x': '[0, 7)', '?cpu g.x': '[0, 7)', '?mem f.x': '[0, 6)', '?cpu f.x': '[0, 6)' });
  });
  it('gives g four points per tile of three under compute-at and store-at ([BETA0-SCOPE])', async () => {
    const t = await scheduled(SEC22, 'split f.x into xo, xi by 3\ncompute-at g at f.xo\nstore-at g at f.xo');
    expect(windows(t, beta0, 0, 6)['?cpu g.x']).toBe('[0, 4) [3, 7)');
    expect(windows(t, beta0, 0, 6)['?mem g.x']).toBe('[0, 4) [3, 7)');
  });
  it('allocates f on [0, 8) and g on [0, 9) under a rounded split by 4', async () => {
    const w = windows(await scheduled(SEC22, 'split f.x into xo, xi by 4 tail round'), beta0, 0, 6);
    expect(w['?mem f.x']).toBe('[0, 8)');
    expect(w['?mem g.x']).toBe('[0, 9)');
    expect(w['?cpu g.x']).toBe('[0, 9)'); // β0 ignores the [B-STORE] antecedent
  });
  it('fails on a data-dependent index, naming the hole and the access', () => {
    const r = runEngine(lower(alg('pipeline o() { func l(x) = x % 5; func o(x) = l(l(x)); }')), beta0);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.explanation).toMatch(/hole \?mem l\.x is unbounded: .*depends on the value of l\[o\.s0\.x\]/);
  });
  it('fails on a func nothing reads, and the lifted engine returns `assert 0` with the reason', () => {
    const t = lower(alg('pipeline o() { func u(x) = x; func o(x) = x; }'));
    const done = completeProgram(t, beta0);
    expect(done.body).toEqual({ k: 'assert', cond: { k: 'const', value: 0 } });
    expect(done.completedBy.failure).toMatch(/\?cpu u\.x is undetermined/);
  });
  it('[HINT-BOUND] [HINT-BOUND-EXTENT] [HINT-ALIGN] fix or widen bounds and assert the covering', async () => {
    const t = await scheduled(SEC22, 'bound-extent g.x len 10\nalign-bounds f.x modulus 4 remainder 1');
    const w = windows(t, beta0, 2, 5);
    expect(w['?cpu f.x']).toBe('[1, 9)');
    expect(w['?cpu g.x']).toBe('[1, 11)');
    const r = runEngine(t, beta0);
    expect(r.ok && r.assertions?.map((a) => a.rule)).toEqual(['HINT-BOUND-EXTENT']);
  });
});

describe('β1', () => {
  const beta1 = BUILTIN_ENGINES.beta1!;
  it('[BETA1-RANGE] bounds a data-dependent index by the func\'s value range', () => {
    expect(windows(lower(alg('pipeline o() { func l(x) = x % 5; func o(x) = l(l(x)); }')), beta1, 7, 2)['?cpu l.x']).toBe('[0, 9)');
  });
  it('[BETA1-GUARD] computes g on [0, 7) under the rounded split, as §2.2 states', async () => {
    expect(windows(await scheduled(SEC22, 'split f.x into xo, xi by 4 tail round'), beta1, 0, 6)['?cpu g.x']).toBe('[0, 7)');
  });
  it('[BETA1-GUARD] trims the last tile of a guarded split', async () => {
    const t = await scheduled(SEC22, 'split f.x into xo, xi by 4\ncompute-at g at f.xo\nstore-at g at f.xo');
    expect(windows(t, BUILTIN_ENGINES.beta0!, 0, 6)['?cpu g.x']).toBe('[0, 5) [4, 9)');
    expect(windows(t, beta1, 0, 6)['?cpu g.x']).toBe('[0, 5) [4, 7)');
  });
  it('[BETA1-GUARD] a guard whose bound is a range cuts at the upper end of that range', () => {
    // i < l(j) with l's values in [0, 2] ([BETA1-RANGE]): i ≤ 1 on every iteration that reads g,
    // not i ≤ −1, the lower end of the bound l(j) − 1.
    const t = lower(alg('pipeline o() { func l(x) = x % 3; func g(x) = x; func o(x) { 0; rdom(i = (0, 4), j = (0, 4)) in (j) <- o(j) + g(i) if i < l(j); } }'));
    expect(windows(t, BUILTIN_ENGINES.beta0!, 0, 4)['?cpu g.x']).toBe('[0, 4)');
    expect(windows(t, beta1, 0, 4)['?cpu g.x']).toBe('[0, 2)');
  });
  it('[BETA0-FORALL] a loop whose extent is a range runs up to the upper end of that range', () => {
    // j runs over [0, h(f.x)] with h's values in [0, 2] ([BETA1-RANGE]): g is read on [0, 3).
    const t = parseTgt(`pipeline f(; x in (x.min, x.len)): {
  allocate h(x in (?mem.min(h.x), ?mem.len(h.x)));
  allocate g(x in (?mem.min(g.x), ?mem.len(g.x)));
  allocate f(x in (?mem.min(f.x), ?mem.len(f.x)));
  label h: for h.x in (?cpu.min(h.x), ?cpu.len(h.x)) do h[h.x] <- h.x % 3;
  label g: for g.x in (?cpu.min(g.x), ?cpu.len(g.x)) do g[g.x] <- g.x;
  label f: for f.x in (?cpu.min(f.x), ?cpu.len(f.x)) do for j in (0, h[f.x] + 1) do f[f.x] <- g[j]
}`, 'extent-range.tgt');
    expect(windows(t, beta1, 2, 3)['?cpu g.x']).toBe('[0, 3)');
  });
  it('[BETA1-SIMPLIFY] cancels correlated terms', () => {
    const t = lower(alg('pipeline o() { func g(x) = x; func o(x) = g((x + 1) - x); }'));
    expect(windows(t, BUILTIN_ENGINES.beta0!, 0, 4)['?cpu g.x']).toBe('[-2, 5)');
    expect(windows(t, beta1, 0, 4)['?cpu g.x']).toBe('[1, 2)');
  });
  it('[BETA1-EMPTY] gives an unread func the empty interval', () => {
    expect(windows(lower(alg('pipeline o() { func u(x) = x; func o(x) = x; }')), beta1, 0, 3)['?cpu u.x']).toBe('[0, 0)');
  });
});

describe('plug-in engines', () => {
  const t = lower(alg(SEC22));
  const q = extractQuery(t);
  const full = Object.fromEntries(q.holes.map(({ key, hole }) => [key, hole.end === 'min' ? 'x.min' : 'x.len + 1']));
  it('accepts text or trees, from a Map or an object', () => {
    const e = defineBoundsEngine({ name: 'text', complete: () => ({ ok: true, completion: full }) });
    const done = completeProgram(t, e);
    expect(printTgt(done)).toContain('for f.s0.x in (x.min, x.len + 1)');
  });
  it('reports malformed answers and exceptions as bad input', () => {
    const bad = (completion: unknown) => defineBoundsEngine({ name: 'bad', complete: () => ({ ok: true, completion }) as never });
    expect(() => runEngine(t, bad({ ...full, '?cpu.min(f.x)': 'x.min +' }))).toThrow(/does not parse/);
    expect(() => runEngine(t, bad({ ...full, '?cpu.min(f.x)': 'y' }))).toThrow(/mentions 'y'/);
    expect(() => runEngine(t, bad({ ...full, '?cpu.min(f.x)': 'g[0]' }))).toThrow(/reads func 'g'/);
    expect(() => runEngine(t, bad({ '?cpu.min(f.x)': 'x.min' }))).toThrow(/no value for/);
    expect(() => runEngine(t, bad({ ...full, '?cpu.min(f.x)': 42 }))).toThrow(/not an expression/);
    expect(() => runEngine(t, defineBoundsEngine({ name: 'odd', complete: () => 7 as never }))).toThrow(/boolean `ok`/);
    expect(() => runEngine(t, defineBoundsEngine({ name: 'boom', complete: () => { throw new Error('kaboom'); } }))).toThrow(/'boom' threw: kaboom/);
    expect(() => defineBoundsEngine({ name: '', complete: () => ({ ok: false, explanation: '' }) })).toThrow(UserError);
  });
  it('loads the example module, whose completion Z3 and the executor reject', async () => {
    const e = await loadEngineModule(join(__dirname, '..', '..', 'examples', 'engines', 'window.mjs'));
    expect(e.name).toBe('window');
    const r = runEngine(t, e);
    expect(r.ok).toBe(true);
    await expect(loadEngineModule(join(__dirname, 'missing.mjs'))).rejects.toThrow(/cannot load/);
    expect(readFileSync(join(__dirname, '..', '..', 'examples', 'engines', 'window.mjs'), 'utf8')).toContain('export default');
  });
});
