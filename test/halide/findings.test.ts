// Known Halide 14 bugs recognised in a comparison's outcome ([HALIDE-KNOWN-BUG], spec/halide.md):
// the shape and what Halide did, together, name the finding; neither alone does.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { int } from '../../src/expr/value.js';
import { knownCrash, knownValuesBug } from '../../src/halide/findings.js';
import { halideProgram } from '../../src/halide/emit.js';
import { halideAvailable, runHalide, validateHalide } from '../../src/halide/run.js';
import { refusalClass } from '../../src/fuzz/properties/halide.js';
import { readBridged } from '../../src/halide/load.js';
import { runCli } from '../support/cli.js';
import { scratchDir } from '../support/files.js';

const available = halideAvailable();
if (!available) console.warn('test/halide: skipped, Halide 14 bindings missing: apt-get install python3-halide');

/** finding 5's shape: the predicate of f's update reads f */
const PREDICATE_READS_F = 'pipeline g() {\n  func f(x) {\n    x;\n    rdom(r = (0, 3)) in (r) <- f(r) + 1 if f(3) != 0;\n  }\n  func g(x) = f(x) * 2;\n}\n';
/** finding 6's case: an update's point outside a bound of the func */
const POINT_OUTSIDE_BOUND = 'pipeline g() {\n  func f(x) {\n    x;\n    (-37) <- 0;\n  }\n  func g(x) = f(x);\n}\n';
/** finding 9's minimal case: the predicate of f1's update reads f0, and its point is read from f0 at r */
const PREDICATE_READS_F0 = 'pipeline f1(n) {\n  func f0(x) = x;\n  func f1(x) {\n    0;\n    rdom(r = (n, 1)) in (min(max(f0(r), 0), 7)) <- 1 if f0(4) != 0;\n  }\n}\n';
/** finding 2's minimal case, with `unroll f0.s1.r`: an empty rdom whose minimum depends on n */
const EMPTY_RDOM = 'pipeline f0(n) {\n  func f0(x) {\n    x;\n    rdom(r = (n - 1, 0)) in (0) <- 3;\n  }\n}\n';
const BLOCK_OF_UNDEFINED = 'Internal Error at /build/halide-14.0.0/src/IR.cpp:509 triggered by user code at : Condition failed: rest.defined(): Block of undefined';
/** finding 1's shape, from a mutation of the bilateral app: count computed per row of weight, stored at the root */
const STORED_ABOVE_SHIFT = "pipeline sliced() {\n  func input(x, y) = (x * 37 + y * 11 + x * y % 13) % 256;\n  func clamped(x, y) = input(max(0, min(x, 63)), max(0, min(y, 63)));\n  func grid(x, y, z) {\n    0;\n    rdom(rx = (0, 4), ry = (0, 4)) in (x, y, clamped(x * 4 + rx, y * 4 + ry) / 32) <- grid(x, y, clamped(x * 4 + rx, y * 4 + ry) / 32) + clamped(x * 4 + rx, y * 4 + ry);\n  }\n  func count(x, y, z) {\n    0;\n    rdom(rx = (0, 4), ry = (0, 4)) in (x, y, clamped(x * 4 + rx, y * 4 + ry) / 32) <- count(x, y, clamped(x * 4 + rx, y * 4 + ry) / 32) + 1;\n  }\n  func blurred(x, y, z) = grid(x, y, z - 1) + 2 * grid(x, y, z) + grid(x, y, z + 1);\n  func weight(x, y, z) = count(x, y, z - 1) + 2 * count(x, y, z) + count(x, y, z + 1);\n  func sliced(x, y) = blurred(x / 4, y / 4, clamped(x, y) / 32) / max(1, weight(x / 4, y / 4, clamped(x, y) / 32));\n}\n";
const STORED_ABOVE_SHIFT_SCHEDULE = "split sliced.s0.y into yo, yi by 8 tail shift\ncompute-at blurred at sliced.s0.yi\ncompute-at count at weight.s0.y\n";
/** finding 1 as a crash: a random case storing f0, f3 and f7 at the row loop of f8, above where they are computed */
const CRASHES_STORED_ABOVE = "pipeline f8(n) {\n  func f0(x, y) = (0 + x * 3 + y * 7) % 17 - 8;\n  func f1(x, y) = f0(max(0, min(x, 5)), max(0, min(select(y < 0, 0 - y, y), 5)));\n  func f2(x, y) = select(-1 < x && x < 6 && (-1 < y && y < 6), f1(max(0, min(x, 5)), max(0, min(y, 5))), -2);\n  func f3(x, y) {\n    f2(x, y);\n    (x, y) <- f3(x, y) + f1(x, y);\n    (x, y) <- f3(x, y) * 1 - 6;\n    rdom(r = (0, 2)) in (x, y) <- max(f3(x, y), f2(x + r, y) + r);\n  }\n  func f4(x, y) = f3(x - 1, y - 1) + f3(x, y - 1) + f3(x + 1, y - 1) + f3(x - 1, y) + 2 * f3(x, y) + f3(x + 1, y) + f3(x - 1, y + 1) + f3(x, y + 1) + f3(x + 1, y + 1);\n  func f5(x, y) {\n    0;\n    rdom(r = (0, n + 1)) in (x, y) <- f5(x, y) + f4(r, y) * f4(x, r);\n  }\n  func f6(x, y) = f5(x / 2, y) + x % 2;\n  func f7(x, y) = f6(x / 2, y) + x % 2;\n  func f8(x, y) = (f4(2 * x, y) + f4(2 * x + 1, y)) / 2 + f7(x, y);\n}\n";
const CRASHES_STORED_ABOVE_SCHEDULE = "unroll f3.s3.r\ncompute-at f6 at f7.s0.x\ncompute-at f7 at f8.s0.y\ncompute-at f5 at f8.s0.y\ncompute-at f0 at f1.s0.x\ncompute-at f3 at f4.s0.x\ncompute-at f5 at f7.s0.x\ncompute-at f4 at f8.s0.y\ncompute-at f0 at f1.s0.y\ncompute-at f2 at f8.s0.y\ncompute-at f1 at f8.s0.y\nstore-at f3 at f8.s0.y\nstore-at f0 at f8.s0.y\nstore-at f7 at f8.s0.y\n";
/** The algorithm and the steps of its schedule, as the bridge reads them from files. */
async function bridged(alg: string, sched: string) {
  const dir = scratchDir('refsem-finding-');
  writeFileSync(join(dir, 'p.alg'), alg);
  writeFileSync(join(dir, 'p.sched'), sched);
  return readBridged({ prog: join(dir, 'p.alg'), schedule: join(dir, 'p.sched') });
}

const INTERNAL = 'Internal Error at /build/halide-14.0.0/src/Scope.h:134 triggered by user code at : Name not in Scope: f';

describe('[HALIDE-KNOWN-BUG] recognising a documented Halide 14 bug', () => {
  it("finding 5 is an internal error of an algorithm whose update's predicate reads the func it updates", () => {
    expect(knownCrash(loadPipeline(PREDICATE_READS_F, 'p.alg'), INTERNAL)?.finding).toBe(5);
    // a crash of another kind, or the same error without the shape, stays a crash
    expect(knownCrash(loadPipeline(PREDICATE_READS_F, 'p.alg'), 'the program died of SIGSEGV')).toBeUndefined();
    expect(knownCrash(loadPipeline('pipeline f() { func f(x) { x; rdom(r = (0, 3)) in (r) <- f(r) + 1 if r > 0; } }', 'p.alg'), INTERNAL)).toBeUndefined();
    // a predicate without an rdom becomes a select, which Halide runs
    expect(knownCrash(loadPipeline('pipeline f() { func f(x) { x; (x) <- 1 if f(x) != 0; } }', 'p.alg'), INTERNAL)).toBeUndefined();
  });

  it("finding 9 is an internal error naming a func that an update's predicate reads, not the func updated", () => {
    const p = loadPipeline(PREDICATE_READS_F0, 'p.alg');
    expect(knownCrash(p, 'Internal Error at /build/halide-14.0.0/src/Scope.h:134 triggered by user code at : Name not in Scope: f0$0')?.finding).toBe(9);
    expect(knownCrash(p, 'Internal Error at /build/halide-14.0.0/src/CodeGen_LLVM.cpp:1302 triggered by user code at : Symbol not found: f0$0.min.0')?.finding).toBe(9);
    // an internal error naming another symbol, or a user error naming f0, stays a crash
    expect(knownCrash(p, 'Internal Error at /build/halide-14.0.0/src/Scope.h:134 triggered by user code at : Name not in Scope: f1$0')).toBeUndefined();
    expect(knownCrash(p, 'Name not in Scope: f0$0')).toBeUndefined();
    expect(knownCrash(loadPipeline(PREDICATE_READS_F0.replace(' if f0(4) != 0', ''), 'p.alg'), 'Internal Error at …: Name not in Scope: f0$0')).toBeUndefined();
  });

  it('finding 2 is "Block of undefined" of a schedule that unrolls an update loop of constant extent 0 or less', async () => {
    const { alg, steps } = await bridged(EMPTY_RDOM, 'unroll f0.s1.r\n');
    expect(knownCrash(alg, BLOCK_OF_UNDEFINED, steps)?.finding).toBe(2);
    // without the unroll, or with a loop that runs, or another internal error, it stays a crash
    expect(knownCrash(alg, BLOCK_OF_UNDEFINED, [])).toBeUndefined();
    const runs = await bridged(EMPTY_RDOM.replace('(n - 1, 0)', '(n - 1, 2)'), 'unroll f0.s1.r\n');
    expect(knownCrash(runs.alg, BLOCK_OF_UNDEFINED, runs.steps)).toBeUndefined();
    expect(knownCrash(alg, INTERNAL, steps)).toBeUndefined();
  });

  it('finding 1: the program with every func stored where it is computed has no store_at or store_root', async () => {
    const { alg, steps } = await bridged(STORED_ABOVE_SHIFT, STORED_ABOVE_SHIFT_SCHEDULE);
    const input = { window: [[int(0), int(1)], [int(0), int(1)]] as const, params: new Map() };
    const script = halideProgram(alg, steps, input);
    const atCompute = halideProgram(alg, steps, input, { storageAtCompute: true });
    expect(script).toMatch(/count\.store_root\(\)/);
    expect(atCompute).not.toMatch(/store_root|store_at/);
    // only the storage lines differ
    expect(atCompute.split('\n')).toEqual(script.split('\n').filter((l) => !/\.store_(root|at)\(/.test(l)));
  });

  it.runIf(available)("finding 1 is values that differ under the schedule's storage and equal the algorithm's without it", async () => {
    const { alg, steps } = await bridged(STORED_ABOVE_SHIFT, STORED_ABOVE_SHIFT_SCHEDULE);
    const input = { window: [[int(0), int(1)], [int(0), int(1)]] as const, params: new Map() };
    // Stored where it is computed, Halide has the algorithm's value, 24.
    expect(await runHalide(halideProgram(alg, steps, input, { storageAtCompute: true }))).toMatchObject({ kind: 'values', values: ['24'] });
    // Under the schedule's storage it reads storage never written: whatever it reads, never a `differs`.
    const v = await validateHalide(alg, steps, input);
    expect(v.kind).not.toBe('differs');
    if (v.kind !== 'equal') expect(v.kind === 'known_halide_bug' && [v.bug.finding, v.outcome]).toEqual([1, expect.stringMatching(/^differs at \(0, 0\): algorithm 24, Halide -?\d+, and equal to the algorithm at every point once each func is stored where it is computed$/)]);
  }, 120_000);

  it.runIf(available)('finding 1 is also a crash that storing each func where it is computed turns into the algorithm\'s values', async () => {
    const { alg, steps } = await bridged(CRASHES_STORED_ABOVE, CRASHES_STORED_ABOVE_SCHEDULE);
    const input = { window: [[int(-2), int(4)], [int(123), int(4)]] as const, params: new Map([['n', int(3)]]) };
    // The heap Halide corrupts decides how it dies (SIGSEGV, SIGABRT) or whether it does: never a crash or a `differs`.
    const v = await validateHalide(alg, steps, input);
    expect(['equal', 'known_halide_bug']).toContain(v.kind);
    if (v.kind === 'known_halide_bug') expect([v.bug.finding, v.outcome]).toEqual([1, expect.stringMatching(/^(Halide crashed: the program died of SIG\w+.*|differs at .*), and equal to the algorithm at every point once each func is stored where it is computed$/)]);
  }, 120_000);

  it('finding 6 is a run that returned values after Halide warned that an assertion must fail', () => {
    expect(knownValuesBug('Warning: This pipeline is guaranteed to fail an assertion at runtime: \nhalide_error_explicit_bounds_too_small(…)')?.finding).toBe(6);
    expect(knownValuesBug('Warning: something else')).toBeUndefined();
  });

  it("a campaign counts refusals by their hazard's rule, without the numbers of the case", () => {
    expect(refusalClass("[HALIDE-TYPES] the algorithm's constant 4294967296 is beyond 32 bits, so its values may leave Halide's Int(64) inside funcs"))
      .toBe("[HALIDE-TYPES] the algorithm's constant N is beyond N bits, so its values may leave Halide's Int(N) inside funcs");
    expect(refusalClass("[HALIDE-SCHEDULE] the bridge does not map directive 'tile' to Halide yet (it maps split, …)")).toBe("[HALIDE-SCHEDULE] the bridge does not map directive 'tile' to Halide yet");
  });
});

describe.runIf(available)('[HALIDE-KNOWN-BUG] on Halide 14: named, counted apart, neither a pass nor a failure', () => {
  const input = (min: number, len: number) => ({ window: [[int(min), int(len)] as const], params: new Map() });

  it("finding 5: Halide's internal error on a predicate reading the updated func (it was a crash)", async () => {
    const v = await validateHalide(loadPipeline(PREDICATE_READS_F, 'p.alg'), [], input(0, 4));
    expect(v.kind).toBe('known_halide_bug');
    expect(v.kind === 'known_halide_bug' && [v.bug.finding, v.outcome]).toEqual([5, expect.stringMatching(/^Halide crashed: Internal Error/)]);
  }, 120_000);

  it("finding 9: Halide's internal error naming f0, read by f1's predicate (it was a crash); without the predicate, equal", async () => {
    const n = { window: [[int(0), int(8)] as const], params: new Map([['n', int(4)]]) };
    const v = await validateHalide(loadPipeline(PREDICATE_READS_F0, 'p.alg'), [], n);
    expect(v.kind === 'known_halide_bug' && [v.bug.finding, v.outcome]).toEqual([9, expect.stringMatching(/Name not in Scope: f0/)]);
    expect((await validateHalide(loadPipeline(PREDICATE_READS_F0.replace(' if f0(4) != 0', ''), 'p.alg'), [], n)).kind).toBe('equal');
  }, 120_000);

  it("finding 2: Halide's internal error unrolling an empty reduction loop (it was a crash); without the unroll, equal", async () => {
    const { alg, steps } = await bridged(EMPTY_RDOM, 'unroll f0.s1.r\n');
    const n = { window: [[int(-1), int(2)] as const], params: new Map([['n', int(-1)]]) };
    const v = await validateHalide(alg, steps, n);
    expect(v.kind === 'known_halide_bug' && [v.bug.finding, v.outcome]).toEqual([2, expect.stringMatching(/Block of undefined/)]);
    expect(await validateHalide(alg, [], n)).toEqual({ kind: 'equal', compared: 2 });
  }, 120_000);

  it('finding 6: a bound short of an update\'s point; Halide warns, returns unwritten values (it was halide-differs); halide --run exits 4', async () => {
    const dir = scratchDir('refsem-finding6-');
    writeFileSync(join(dir, 'p.alg'), POINT_OUTSIDE_BOUND);
    writeFileSync(join(dir, 'p.sched'), 'bound f.x min -11 len 19\n');
    const r = await runCli(['halide', join(dir, 'p.alg'), '--schedule', join(dir, 'p.sched'), '--window', '0+3', '--run']);
    expect(r.stdout).toMatch(/^a known Halide 14 bug, finding 6 of docs\/halide-findings\.md \(.*\); not a comparison: Halide returned values without raising the assertion it warned of; they are not compared\n$/);
    expect(r.code).toBe(4);
    // without the bound, Halide computes the algorithm's values
    const plain = await runCli(['halide', join(dir, 'p.alg'), '--window', '0+3', '--run']);
    expect(plain.stdout).toBe('equal on 3 points\n');
  }, 120_000);
});
