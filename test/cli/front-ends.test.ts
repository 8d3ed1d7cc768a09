// Every front end against random and mutated input: 10,000 texts through the library (2,000 for
// .halide, whose texts that parse each apply a whole Harris schedule, ~45 ms) and 100 through the
// command line per front end (.alg, .tgt, .sched, .halide, .lam, reproducer JSON). Each ends in
// a result or a located error (the library: a UserError with a place; the command line: exit 0, 1
// or 2, with `file:line:col: error:` or `<command line>…: error:` on exit 2) — never another
// exception, an exit 3, a stack trace or a hang. The counts are in docs/development.md.
import fc from 'fast-check';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diag.js';
import { loadPipeline } from '../../src/alg-semantics/load.js';
import { lower } from '../../src/lowering/lower.js';
import { parseTgt } from '../../src/target-semantics/parse.js';
import { checkTgt } from '../../src/target-semantics/check.js';
import { parseSchedule } from '../../src/schedule/parse.js';
import { halideSchedule } from '../../src/schedule/halide-style.js';
import { loadProgram } from '../../src/perceus/scope.js';
import { readReproducer } from '../../src/fuzz/reproducer.js';
import { runCli } from '../support/cli.js';
import { examplesDir, scratch } from '../support/files.js';

const LIBRARY_RUNS = 10_000;
const CLI_RUNS = 100;

const { dir, file } = scratch('refsem-front-ends-');
const ex = (f: string) => join(examplesDir, f);
const read = (f: string) => readFileSync(ex(f), 'utf8');
const named = (ext: string, sub = '') => readdirSync(join(examplesDir, sub)).filter((f) => f.endsWith(ext)).map((f) => read(join(sub, f)));

const harris = loadPipeline(read('harris.alg'), 'harris.alg');
const harrisT0 = lower(harris);
const REPRO = `${JSON.stringify({
  format: 'refsem-reproducer/1', property: 'roundtrip', verdict: 'roundtrip-differs', seed: 1, check: 0, check_seed: 1, engine: 'beta0', directives: [], key: 'roundtrip/k',
  case: { program: read('sec22.alg'), input: { window: [['0', '3']], params: {} }, schedule: read('sec22.sched') }, expected: 'e', actual: 'a', shrinks: 0,
}, null, 2)}\n`;

interface FrontEnd {
  readonly ext: string;
  /** texts through the library */
  readonly runs: number;
  readonly seeds: readonly string[];
  /** the library's reading of a text (throws on bad input) */
  readonly library: (text: string, path: string) => unknown;
  /** a command that reads the file */
  readonly command: (path: string) => string[];
}

const FRONT_ENDS: readonly FrontEnd[] = [
  { ext: 'alg', runs: LIBRARY_RUNS, seeds: named('.alg'), library: (t, p) => loadPipeline(t, p), command: (p) => ['check', p] },
  { ext: 'tgt', runs: LIBRARY_RUNS, seeds: named('.tgt'), library: (t, p) => checkTgt(parseTgt(t, p)), command: (p) => ['step', p, '--window', '0+2', '--max-steps', '500'] },
  { ext: 'sched', runs: LIBRARY_RUNS, seeds: named('.sched'), library: (t, p) => parseSchedule(t, p), command: (p) => ['schedule', ex('harris.alg'), '--schedule', p] },
  { ext: 'halide', runs: 2_000, seeds: named('.halide'), library: (t, p) => halideSchedule(t, p, harrisT0), command: (p) => ['schedule', ex('harris.alg'), '--schedule', p, '--print'] },
  { ext: 'lam', runs: LIBRARY_RUNS, seeds: named('.lam', 'perceus'), library: (t, p) => loadProgram(t, p), command: (p) => ['rc', p, '--max-steps', '20000'] },
  { ext: 'json', runs: LIBRARY_RUNS, seeds: [REPRO], library: (t, p) => (writeFileSync(p, t), readReproducer(p)), command: (p) => ['replay', p] },
];

/** One edit of a text: delete, duplicate, move or replace a slice, or insert characters that matter to the parsers. */
const NOISE = ['(', ')', '{', '}', ',', ';', '.', '=', '==', '<-', '-', '+', '*', '/', '%', '"', "'", '\n', ' ', '0', '-1', '99999999999999999999', 'f', 'x', 'err.rdom', 'rdom', 'func', 'for', 'in', 'let', '\u0000', '\uFEFF', 'é', '//', '#', '[', ']', ':', '\\'];
const arbEdit = fc.tuple(fc.nat(4), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(...NOISE));
function mutate(text: string, edits: readonly (readonly [number, number, number, string])[]): string {
  let s = text;
  for (const [kind, a, b, noise] of edits) {
    const i = Math.floor(a * s.length);
    const j = Math.min(s.length, i + 1 + Math.floor(b * 12));
    if (kind === 0) s = s.slice(0, i) + s.slice(j);
    else if (kind === 1) s = s.slice(0, j) + s.slice(i, j) + s.slice(j);
    else if (kind === 2) s = s.slice(0, i) + noise + s.slice(i);
    else if (kind === 3) s = s.slice(0, i) + noise + s.slice(j);
    else s = s.slice(0, Math.floor(b * s.length));
  }
  return s;
}
/** Mutated seeds mostly, and now and then a text of random characters. */
const arbText = (seeds: readonly string[]) => fc.oneof(
  { weight: 9, arbitrary: fc.tuple(fc.constantFrom(...seeds), fc.array(arbEdit, { minLength: 1, maxLength: 6 })).map(([s, es]) => mutate(s, es)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 120, unit: 'binary' }) },
);

describe.each(FRONT_ENDS)('the .$ext front end', (fe) => {
  it(`${fe.runs} texts through the library: a result or a located UserError`, () => {
    const path = join(dir, `lib.${fe.ext}`);
    let results = 0;
    let errors = 0;
    fc.assert(fc.property(arbText(fe.seeds), (text) => {
      try {
        fe.library(text, path);
        results++;
      } catch (e) {
        if (!(e instanceof UserError)) throw e;
        expect(e.loc, e.message).toBeDefined();
        errors++;
      }
    }), { numRuns: fe.runs, seed: 7 });
    // Both outcomes occur: the mutations are neither all harmless nor all fatal.
    expect(results).toBeGreaterThan(0);
    expect(errors).toBeGreaterThan(0);
  }, 300_000);

  it(`${CLI_RUNS} files through the command line: exit 0, 1 or 2, a located message on 2`, async () => {
    const texts = fc.sample(arbText(fe.seeds), { numRuns: CLI_RUNS, seed: 8 });
    const codes = new Map<number, number>();
    for (const [k, text] of texts.entries()) {
      const path = file(`cli-${k}.${fe.ext}`, text);
      const r = await runCli(fe.command(path));
      expect([0, 1, 2], r.stderr).toContain(r.code);
      if (r.code === 2) expect(r.stderr).toMatch(/^([^\n:]+:\d+:\d+|<command line>( [^\n]*)?): error: \S/m);
      expect(r.stdout + r.stderr).not.toContain('    at ');
      codes.set(r.code, (codes.get(r.code) ?? 0) + 1);
    }
    expect(codes.get(2)).toBeGreaterThan(0);
  }, 600_000);
});
