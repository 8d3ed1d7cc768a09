// The whole CLI against bad input (ARCHITECTURE.md, exit codes): whatever the arguments and file
// contents, a command ends with 0 (ok), 1 (a check failed) or 2 (bad input, with an error message),
// never with an internal error or a JavaScript stack trace. Random argument vectors and mutated
// copies of the examples drive every command in-process; hand-written cases pin each category of
// bad input to its message.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../support/cli.js';

const EX = join(import.meta.dirname, '../../examples');
const ex = (f: string) => join(EX, f);
const dir = mkdtempSync(join(tmpdir(), 'refsem-robust-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Kind = 'alg' | 'tgt' | 'sched' | 'lam';
const seeds: Record<Kind, string[]> = {
  alg: readdirSync(EX).filter((f) => f.endsWith('.alg')).map((f) => readFileSync(ex(f), 'utf8')),
  tgt: readdirSync(EX).filter((f) => f.endsWith('.tgt')).map((f) => readFileSync(ex(f), 'utf8')),
  sched: readdirSync(EX).filter((f) => f.endsWith('.sched')).map((f) => readFileSync(ex(f), 'utf8')),
  lam: readdirSync(join(EX, 'perceus')).map((f) => readFileSync(join(EX, 'perceus', f), 'utf8')),
};

/** Writes `text` to a fresh file with extension `ext` and returns its path. */
let serial = 0;
function temp(ext: string, text: string): string {
  const p = join(dir, `f${serial++}.${ext}`);
  writeFileSync(p, text);
  return p;
}
const aDirectory = join(dir, 'a-directory.alg');
mkdirSync(aDirectory);
const emptyFile = temp('alg', '');

/** A bad exit is 2 with an error message; anything else a user may see is a verdict. */
function wellBehaved(r: CliResult): void {
  expect([0, 1, 2]).toContain(r.code);
  if (r.code === 2) {
    expect(r.stderr).toContain('error');
  }
  expect(r.stdout + r.stderr).not.toContain('    at ');
  expect(r.stderr).not.toContain('internal error');
}

// ---------------------------------------------------------------------------------------------
// Random inputs

/** Fragments that break or stress every front end: brackets, operators, huge and negative numbers. */
const TOKENS = [
  '(', ')', '{', '}', '[', ']', ';', ',', '=', '<-', ':', '.', '-', '+', '*', '/', '%', '<', '&&', '!',
  'x', 'f', 'g', 'rdom', 'func', 'pipeline', 'for', 'parallel', 'in', 'do', 'allocate', 'label', 'let',
  'if', 'then', 'else', 'select', 'min', 'max', 'split', 'by', 'at', 'compute-at', 'vectorize',
  'fun', 'match', 'val', 'type', 'Nil', 'Cons', 'dup', 'drop', '\\x ->', '->',
  '0', '-1', '3', '99999999999999999999999', '-99999999999999999999999', '?cpu.min(f.x)', '\n', ' ', '"', '#', '\u00e9', '\u0000',
];

/** A mutation: replace `del` characters at `at` by `ins`; or, with `num`, replace the `at`-th integer literal. */
type Mutation = { at: number; del: number; ins: string; num: boolean };
const NUMBERS = ['0', '-1', '1', '-7', '65536', '99999999999999999999999', '-99999999999999999999999', '2147483648'];
const mutation = fc.record({
  at: fc.nat(),
  del: fc.oneof({ weight: 3, arbitrary: fc.nat({ max: 3 }) }, { weight: 1, arbitrary: fc.nat({ max: 60 }) }),
  ins: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...TOKENS) }, { weight: 1, arbitrary: fc.string({ maxLength: 4 }) }),
  num: fc.boolean(),
});

function mutate(text: string, ms: readonly Mutation[]): string {
  let s = text;
  for (const m of ms) {
    const lits = [...s.matchAll(/\d+/g)];
    if (m.num && lits.length > 0) {
      const l = lits[m.at % lits.length]!;
      s = s.slice(0, l.index) + NUMBERS[m.at % NUMBERS.length]! + s.slice(l.index + l[0].length);
      continue;
    }
    const at = s.length === 0 ? 0 : m.at % (s.length + 1);
    s = s.slice(0, at) + m.ins + s.slice(at + m.del);
  }
  return s;
}

/** A file argument: usually a mutated file of the expected kind, sometimes of another kind, or no file at all. */
function fileArg(kind: Kind): fc.Arbitrary<string> {
  const kinds: Kind[] = ['alg', 'tgt', 'sched', 'lam'];
  const mutated = (k: Kind) =>
    fc.tuple(fc.constantFrom(...seeds[k]), fc.array(mutation, { maxLength: 3 })).map(([s, ms]) => temp(k, mutate(s, ms)));
  return fc.oneof(
    { weight: 8, arbitrary: mutated(kind) },
    { weight: 2, arbitrary: fc.constantFrom(...kinds).chain(mutated) },
    { weight: 1, arbitrary: fc.constantFrom(aDirectory, emptyFile, join(dir, 'no-such-file.alg'), '') },
  );
}

/** Values for options: well-formed, malformed, negative, huge. */
const VALUE = fc.oneof(
  fc.constantFrom(
    '0+4', '-3+5', '0+2,0+3', '1+6', '', ',,', '0+-1', '-3+-5', '1e3', 'abc', '0', '1', '-1', ' 5', '=',
    '99999999999999999999999', '0+99999999999999999999999', '99999999999999999999999+2', 'n=3', 'k=2', 'x=', 'all',
    'fast', 'machine', 'beta0', 'f(1)', 'blur_y(0,0)', 'f(x)', 'g(99999999999999999999999)',
  ),
  fc.string({ maxLength: 6 }),
);

/** Options of each command: each drawn entry becomes `--name value` or `--name=value` (or a bare flag). */
const OPTIONS: Record<string, { flags: string[]; valued: string[] }> = {
  run: { flags: ['--json'], valued: ['--window', '--param', '--max-points', '--max-steps'] },
  check: { flags: [], valued: [] },
  explain: { flags: [], valued: ['--point', '--param', '--depth', '--budget'] },
  fmt: { flags: [], valued: [] },
  step: { flags: [], valued: ['--window', '--param', '--max-steps', '--every', '--seed'] },
  lower: { flags: ['--trace', '--holes', '--check'], valued: ['--param', '--executor', '--seed'] },
  compare: { flags: [], valued: ['--window', '--param', '--executor', '--seed', '--max-steps'] },
  schedule: { flags: ['--trace', '--check'], valued: [] },
  rc: { flags: ['--scoped', '--formal', '--annotated', '--trace', '--stats', '--print', '--derivation', '--standard', '--json'], valued: ['--opt', '--check', '--max-steps'] },
  bounds: { flags: ['--query', '--rules', '--program', '--trace'], valued: ['--engine'] },
  exec: { flags: ['--json', '--compare', '--print'], valued: ['--window', '--param', '--engine', '--executor', '--seed', '--max-steps'] },
  expr: { flags: ['--trace', '--show'], valued: ['--param'] },
};

/**
 * Caps appended after the random options (a later value of an option wins): the commands' own
 * limits keep every run small, so that the property tests robustness, not patience.
 */
const CAPS: Record<string, string[]> = {
  run: ['--max-steps', '20000', '--max-points', '400'],
  explain: ['--budget', '2000'],
  step: ['--max-steps', '300'],
  compare: ['--max-steps', '20000'],
  rc: ['--max-steps', '20000'],
  exec: ['--max-steps', '20000'],
};

/** Positional arguments of each command. */
const POSITIONAL: Record<string, fc.Arbitrary<string[]>> = {
  run: fileArg('alg').map((f) => [f]),
  check: fileArg('alg').map((f) => [f]),
  explain: fileArg('alg').map((f) => [f]),
  fmt: fileArg('alg').map((f) => [f]),
  step: fileArg('tgt').map((f) => [f]),
  lower: fileArg('alg').map((f) => [f]),
  compare: fc.tuple(fileArg('alg'), fileArg('tgt')).map(([a, t]) => [a, t]),
  schedule: fc.tuple(fc.oneof(fileArg('alg'), fileArg('tgt')), fileArg('sched')).map(([p, s]) => [p, '--schedule', s]),
  rc: fileArg('lam').map((f) => [f]),
  bounds: fc.oneof(fileArg('alg'), fileArg('tgt')).map((f) => [f]),
  exec: fc.oneof(fileArg('alg'), fileArg('tgt')).map((f) => [f]),
  expr: fc.oneof(
    fc.constantFrom('7 / -2', 'x + 1', 'select(1 < 2, 3, 4)', '99999999999999999999999 * 99999999999999999999999', '1 % 0'),
    fc.array(fc.constantFrom(...TOKENS), { maxLength: 8 }).map((ts) => ts.join(' ')),
  ).map((e) => [e]),
};

/** Required options with a usable value, present in most runs so that runs get past argument checking. */
const REQUIRED: Record<string, string[]> = {
  run: ['--window', '0+3,0+2'],
  compare: ['--window', '0+3,0+2'],
  exec: ['--window', '0+3,0+2'],
  step: ['--window', '0+3,0+2'],
  explain: ['--point', 'blur_y(1,2)'],
};

function argv(command: string): fc.Arbitrary<string[]> {
  const { flags, valued } = OPTIONS[command]!;
  const choices: fc.Arbitrary<string[]>[] = [];
  if (flags.length) choices.push(fc.constantFrom(...flags).map((f) => [f]));
  if (valued.length) choices.push(fc.tuple(fc.constantFrom(...valued), VALUE, fc.boolean()).map(([o, v, eq]) => (eq ? [`${o}=${v}`] : [o, v])));
  const options = choices.length ? fc.array(fc.oneof(...choices), { maxLength: 4 }) : fc.constant([]);
  // At the very end, so that it cannot swallow the caps: junk, or an option whose value is missing.
  const last = fc.oneof(
    { weight: 6, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.constantFrom(['--no-such-option'], ['-z'], ['extra-argument'], ['--help']) },
    ...(valued.length ? [{ weight: 1, arbitrary: fc.constantFrom(...valued).map((o) => [o]) }] : []),
  );
  return fc
    .tuple(POSITIONAL[command]!, fc.nat({ max: 9 }), fc.nat({ max: 9 }), options, last)
    .map(([pos, dropPositional, dropRequired, opts, end]) => [
      command,
      ...(dropPositional === 0 ? [] : pos), // one run in ten lacks its arguments …
      ...(dropRequired === 0 ? [] : (REQUIRED[command] ?? [])), // … and one in ten its required options
      ...opts.flat(),
      ...(CAPS[command] ?? []),
      ...end,
    ]);
}

// ROBUST_RUNS / ROBUST_SEED widen a run by hand; ROBUST_STATS prints each exit code and message.
const RUNS = Number(process.env.ROBUST_RUNS ?? 40);
const SEED = Number(process.env.ROBUST_SEED ?? 20261122);
const STATS = process.env.ROBUST_STATS !== undefined;

describe('every command survives random and mutated input', () => {
  for (const command of Object.keys(OPTIONS)) {
    it(command, async () => {
      await fc.assert(
        fc.asyncProperty(argv(command), async (args) => {
          const r = await runCli(args);
          if (STATS) console.log(`${r.code} ${r.stderr.split('\n')[0]!.slice(0, 120)}`);
          wellBehaved(r);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    });
  }
});
