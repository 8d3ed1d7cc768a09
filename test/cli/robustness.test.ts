// The whole CLI against bad input (docs/architecture.md, exit codes): whatever the arguments and file
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
    // `FILE:LINE:COL: error: …`, or `<command line>[ OPTION VALUE]: error: …` for the arguments.
    expect(r.stderr).toMatch(new RegExp(`(^|\n)${LOCATED.source.slice(1)}`, 'm'));
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

/** A reproducer as a campaign writes it: the unsound example directive races. */
const REPRODUCER = `${JSON.stringify(
  {
    format: 'refsem-reproducer/1', property: 'confluence', verdict: 'unsafe-data-race', seed: 1, check: 0, check_seed: 1, engine: 'beta0',
    directives: [join(EX, 'directives', 'unsound-parallel.mjs')], focus: 'parallel-any', key: 'confluence/directive:parallel-any',
    case: {
      program: 'pipeline f0() {\n  func f0(x) {\n    x;\n    rdom(r = (0, 2)) in (0) <- r;\n  }\n}\n',
      input: { window: [['0', '1']], params: {} },
      schedule: 'parallel-any f0.s1.r\n',
    },
    expected: '', actual: '', shrinks: 0,
  },
  null,
  2,
)}\n`;
/** The summary.json of a campaign with one failure. */
const SUMMARY = `${JSON.stringify({
  seed: 3, runs: 40, elapsed_s: 0.5, checks_per_s: 80, jobs: 1, shard: '0/1', engine: 'beta0', interrupted: false,
  failures: [{ property: 'confluence', verdict: 'unsafe-data-race', key: 'confluence/x', check: 7, reproducer: 'confluence-0.json' }],
  directives: { split: 2 }, properties: { confluence: { checks: 40, failures: 1, discards: 0 } }, constructs: { 'op +': 3 },
})}\n`;

/** A reproducer argument: a mutated reproducer, sometimes no file. */
const reproducerArg = fc.oneof(
  { weight: 8, arbitrary: fc.array(mutation, { maxLength: 3 }).map((ms) => temp('json', mutate(REPRODUCER, ms))) },
  { weight: 1, arbitrary: fc.constantFrom(aDirectory, emptyFile, join(dir, 'no-such-file.json')) },
);
/** A campaign directory argument: one holding a mutated summary.json, or one without any. */
const campaignDir = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.array(mutation, { maxLength: 3 }).map((ms) => {
      const d = join(dir, `campaign${serial++}`);
      mkdirSync(d);
      writeFileSync(join(d, 'summary.json'), mutate(SUMMARY, ms));
      return d;
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom(dir, join(dir, 'no-such-campaign'), emptyFile) },
);

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
  rc: { flags: ['--scoped', '--formal', '--annotated', '--trace', '--stats', '--print', '--derivation', '--standard', '--json'], valued: ['--opt', '--check', '--max-steps', '--max-check-work'] },
  bounds: { flags: ['--query', '--rules', '--program', '--trace'], valued: ['--engine'] },
  exec: { flags: ['--json', '--compare', '--print'], valued: ['--window', '--param', '--engine', '--executor', '--seed', '--max-steps'] },
  expr: { flags: ['--trace', '--show'], valued: ['--param'] },
  replay: { flags: ['--json'], valued: [] },
  merge: { flags: ['--json', '--stats'], valued: [] },
  tree: { flags: ['--trace'], valued: ['--base'] },
  heap: { flags: [], valued: ['--step'] },
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
  replay: reproducerArg.map((f) => [f]),
  merge: fc.array(campaignDir, { minLength: 1, maxLength: 2 }),
  tree: fc.tuple(fc.oneof(fileArg('alg'), fileArg('tgt')), fileArg('sched')).map(([p, s]) => [p, '--schedule', s]),
  heap: fileArg('lam').map((f) => [f]),
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

/** runCli, failing (with the arguments) instead of waiting for ever when a command hangs. */
async function runBounded(args: string[]): Promise<CliResult> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within 20 s: refsem ${JSON.stringify(args)}`)), 20_000);
  });
  try {
    return await Promise.race([runCli(args), hang]);
  } finally {
    clearTimeout(timer);
  }
}

// ROBUST_RUNS / ROBUST_SEED widen a run by hand; ROBUST_STATS prints each exit code and message.
const RUNS = Number(process.env.ROBUST_RUNS ?? 100);
const SEED = Number(process.env.ROBUST_SEED ?? 20261122);
const STATS = process.env.ROBUST_STATS !== undefined;

describe('every command survives random and mutated input', () => {
  for (const command of Object.keys(OPTIONS)) {
    it(command, async () => {
      await fc.assert(
        fc.asyncProperty(argv(command), async (args) => {
          const r = await runBounded(args);
          if (STATS) console.log(`${r.code} ${r.stderr.split('\n')[0]!.slice(0, 120)}`);
          wellBehaved(r);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    });
  }
});

// ---------------------------------------------------------------------------------------------
// Hand-written cases, one group per category of bad input

/** `FILE:LINE:COL: error: …` (the form of every located user error). */
// A file position, or a place on the command line (an option and its value, or none).
const LOCATED = /^([^\n:]+:\d+:\d+|<command line>( [^\n]*)?): error: \S/m;

/** Exit 2 with a located error message containing `what`, and no stack trace. */
async function rejects(args: string[], what: string | RegExp, opts: { hint?: string | RegExp; located?: boolean } = {}): Promise<CliResult> {
  const r = await runCli(args);
  wellBehaved(r);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(what);
  if (opts.located !== false) expect(r.stderr).toMatch(LOCATED);
  if (opts.hint !== undefined) expect(r.stderr).toMatch(new RegExp(`\\n  hint: .*${typeof opts.hint === 'string' ? opts.hint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : opts.hint.source}`));
  return r;
}

/** The completed target program of examples/sec22.alg (as `refsem bounds --program` prints it). */
const SEC22_TGT = `pipeline f(; x in (x.min, x.len)):
{
  allocate g(x in (x.min, x.len + 1));
  label g: for g.s0.x in (x.min, x.len + 1) do g[g.s0.x] <- g.s0.x * g.s0.x;
  allocate f(x in (x.min, x.len));
  label f: for f.s0.x in (x.min, x.len) do f[f.s0.x] <- g[f.s0.x] + g[f.s0.x + 1]
}
`;
const sec22Tgt = temp('tgt', SEC22_TGT);
const sec22Bounds = temp(
  'json',
  JSON.stringify({
    '?mem.min(g.x)': 'x.min', '?mem.len(g.x)': 'x.len + 1', '?cpu.min(g.x)': 'x.min', '?cpu.len(g.x)': 'x.len + 1',
    '?mem.min(f.x)': 'x.min', '?mem.len(f.x)': 'x.len', '?cpu.min(f.x)': 'x.min', '?cpu.len(f.x)': 'x.len',
  }),
);

describe('syntax errors', () => {
  const broken = temp('alg', 'pipeline f( {');
  const rest: Record<string, string[]> = {
    run: ['--window', '0+2'], check: [], explain: ['--point', 'f(0)'], fmt: [], lower: [],
    schedule: ['--schedule', ex('sec22.sched')], bounds: [], exec: ['--window', '0+2'],
  };
  for (const [cmd, more] of Object.entries(rest)) {
    it(`${cmd}: an unfinished header is reported at its column`, async () => {
      await rejects([cmd, broken, ...more], `${broken}:1:13: error:`);
    });
  }
  it('step: a target program with a bad statement', async () => {
    const t = temp('tgt', 'pipeline f(; x in (x.min, x.len)):\n{\n  frob\n}\n');
    await rejects(['step', t, '--window', '0+2'], new RegExp(`${t}:3:3: error: expected a statement`));
  });
  it('rc: a λ1 program with an unbalanced brace', async () => {
    const l = temp('lam', 'fun main() { 1 + }');
    await rejects(['rc', l], `${l}:1:`);
  });
  it('expr: an unbalanced parenthesis', async () => {
    await rejects(['expr', '(1 + 2'], '<expr>:1:');
  });
  it('a binary file is refused at its first character', async () => {
    await rejects(['check', temp('alg', '\u00ff\u0000\u0001')], /:1:1: error: unexpected character/);
  });
});

describe('invalid programs', () => {
  it('check: a call of an undefined func', async () => {
    const p = temp('alg', 'pipeline f() {\n  func f(x) = g(x);\n}\n');
    await rejects(['check', p], new RegExp(`${p}:2:\\d+: error: .*'g'`));
  });
  it('run: an algorithm whose parameter is not given', async () => {
    await rejects(['run', ex('params.alg'), '--window', '0+2,0+2'], /error: .*param/, { hint: '--param' });
  });
  it('rc: a program without main', async () => {
    await rejects(['rc', temp('lam', 'fun f(x) = x\n')], "no 'main' function", { hint: 'fun main()' });
  });
});

describe('bad schedules', () => {
  it('a split by zero names the directive, its rule and its line', async () => {
    const s = temp('sched', 'split f.x by 0\n');
    await rejects(['schedule', ex('sec22.alg'), '--schedule', s], new RegExp(`${s}:1:1: error: .*\\[SPLIT-FACTOR\\]`));
  });
  it('an unknown directive lists the known ones', async () => {
    const s = temp('sched', '\nfrobnicate f.x\n');
    await rejects(['schedule', ex('sec22.alg'), '--schedule', s], `${s}:2:1: error: unknown directive 'frobnicate'`, { hint: 'split' });
  });
  it('a schedule naming a func the program lacks', async () => {
    await rejects(['schedule', ex('sec22.alg'), '--schedule', ex('blur.sched')], "there is no func 'blur_y'", { hint: 'g, f' });
  });
  it('exec and bounds reject the same schedule', async () => {
    const s = temp('sched', 'split f.x by -4\n');
    await rejects(['exec', ex('sec22.alg'), '--schedule', s, '--window', '0+4'], `${s}:1:1: error:`);
    await rejects(['bounds', ex('sec22.alg'), '--schedule', s], `${s}:1:1: error:`);
  });
});

/** Commander's own complaints read like the other command-line errors (spec: exit 2, a hint). */
const COMMANDER = { hint: '--help' } as const;

describe('bad command-line arguments', () => {
  it('an unknown command', async () => {
    await rejects(['frobnicate'], "unknown command 'frobnicate'", COMMANDER);
  });
  it('an unknown option', async () => {
    await rejects(['run', ex('sec22.alg'), '--window', '0+2', '--frob'], "unknown option '--frob'", COMMANDER);
  });
  it('a missing required option', async () => {
    await rejects(['run', ex('sec22.alg')], "required option '--window", COMMANDER);
    await rejects(['explain', ex('sec22.alg')], "required option '--point", COMMANDER);
    await rejects(['compare', ex('sec22.alg'), sec22Tgt], "required option '--window", COMMANDER);
  });
  it('a missing argument, an option without its value, too many arguments', async () => {
    await rejects(['run', '--window', '0+2'], "missing required argument 'prog'", COMMANDER);
    await rejects(['run', ex('sec22.alg'), '--window'], "option '--window <MIN+LEN,...>' argument missing", COMMANDER);
    await rejects(['fmt', ex('sec22.alg'), ex('sec22.alg')], 'too many arguments', COMMANDER);
    await rejects(['schedule', ex('sec22.alg')], 'schedule needs PROG and --schedule', COMMANDER);
  });
  it('--help prints usage and succeeds; so does a command with --help', async () => {
    for (const args of [['--help'], ['run', '--help'], ['help', 'rc']]) {
      const r = await runCli(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Usage: refsem');
    }
  });
  it('invalid option values of every kind', async () => {
    const a = ex('sec22.alg');
    await rejects(['run', a, '--window', '0+x'], "invalid --window '0+x'", { hint: '--window 0+6' });
    await rejects(['run', a, '--window', '0+2', '--param', 'n'], "invalid --param 'n'", { hint: '--param n=10' });
    await rejects(['run', ex('params.alg'), '--window', '0+2,0+2', '--param', 'a=1', '--param', 'a=2'], 'given twice', { hint: 'once' });
    await rejects(['step', sec22Tgt, '--window', '0+2', '--seed', '1.5'], "invalid --seed '1.5'", { hint: 'integer' });
    await rejects(['step', sec22Tgt, '--window', '0+2', '--every', '0'], "invalid --every '0': must be at least 1");
    await rejects(['run', a, '--window', '0+2', '--max-steps', '1e3'], "invalid --max-steps '1e3'", { hint: 'integer' });
    await rejects(['compare', a, sec22Tgt, '--window', '0+2', '--max-steps', '-5'], "invalid --max-steps '-5'");
    await rejects(['compare', a, sec22Tgt, '--window', '0+2', '--executor', 'jit'], "invalid --executor 'jit'", { hint: 'machine' });
    await rejects(['explain', a, '--point', 'f(x)'], "invalid --point 'f(x)'", { hint: "--point 'f(3, -4)'" });
    await rejects(['explain', a, '--point', 'f(1, 2)'], "'f' has 1 dimensions, not 2");
    await rejects(['explain', a, '--point', 'h(1)'], "unknown func 'h'", { hint: 'g, f' });
    await rejects(['explain', a, '--point', 'f(1)', '--budget', '3'], 'budget exceeded', { hint: '--budget' });
    await rejects(['rc', ex('perceus/map.lam'), '--opt', 'fast'], "unknown optimization 'fast'", { hint: 'reuse' });
    await rejects(['rc', ex('perceus/map.lam'), '--max-steps', 'many'], "invalid --max-steps 'many'");
    await rejects(['codegen', a, '--simd', 'sse9'], "invalid --simd 'sse9'", { hint: 'avx2' });
    await rejects(['validate', a, '--backend', 'gpu'], "invalid --backend 'gpu'");
    await rejects(['validate', a, '--inputs', '99999999999999999999'], 'must be at most 10000');
    await rejects(['validate', a, '--param', 'n=1'], '--param needs --window', { hint: '--window' });
    await rejects(['fuzz', '--jobs', 'abc', '--runs', '1'], "invalid --jobs 'abc'");
    await rejects(['fuzz', '--jobs', '0', '--runs', '1'], "invalid --jobs '0'");
    await rejects(['fuzz', '--seed', '1e3', '--runs', '1'], "invalid --seed '1e3'");
    await rejects(['bounds', a, '--verify', '--timeout', 'soon'], "invalid --timeout 'soon'");
  });
});

describe('files that cannot be used', () => {
  const cases: [string, string[]][] = [
    ['run', ['--window', '0+2']], ['check', []], ['explain', ['--point', 'f(0)']], ['fmt', []], ['step', ['--window', '0+2']],
    ['lower', []], ['rc', []], ['bounds', []], ['exec', ['--window', '0+2']], ['codegen', []],
  ];
  for (const [cmd, rest] of cases) {
    it(`${cmd}: a missing file, a directory, an empty file`, async () => {
      await rejects([cmd, join(dir, 'missing.alg'), ...rest], `<command line>: error: cannot read '${join(dir, 'missing.alg')}': no such file`, { hint: 'path' });
      await rejects([cmd, aDirectory, ...rest], `cannot read '${aDirectory}': is a directory`, { hint: 'path' });
      await rejects([cmd, emptyFile, ...rest], `${emptyFile}:1:1: error:`);
    });
  }
  it('a missing or malformed --fill, --schedule, --impl file', async () => {
    const a = ex('sec22.alg');
    await rejects(['lower', a, '--fill', join(dir, 'missing.json')], 'no such file');
    await rejects(['lower', a, '--fill', temp('json', '{"?cpu.min(f.x)": 3}')], 'must hold one object mapping holes to expression strings');
    await rejects(['lower', a, '--fill', temp('json', '{')], 'is not JSON');
    await rejects(['lower', a, '--fill', temp('json', '{"?nope(f.x)": "0"}')], "'nope' is not a hole kind");
    await rejects(['schedule', a, '--schedule', aDirectory], 'is a directory');
    await rejects(['validate', a, '--impl', join(dir, 'missing.c'), '--inputs', '1'], 'no such file');
  });
});

describe('a file of the wrong kind', () => {
  it('a target program where an algorithm is expected, and the converse', async () => {
    await rejects(['run', ex('blur.tgt'), '--window', '0+2,0+2'], 'error:', { hint: "is a target program (.tgt), but this command expects an algorithm (.alg)" });
    await rejects(['check', ex('blur.tgt')], 'error:', { hint: 'expects an algorithm (.alg)' });
    await rejects(['compare', ex('sec22.alg'), ex('sec22.alg'), '--window', '0+2'], 'error:', { hint: "is an algorithm (.alg), but this command expects a target program (.tgt)" });
    await rejects(['step', ex('sec22.alg'), '--window', '0+2'], 'error:', { hint: 'expects a target program (.tgt)' });
  });
  it('a schedule or a λ1 program given as the program, an algorithm as the λ1 program', async () => {
    await rejects(['fmt', ex('sec22.sched')], 'error:', { hint: 'is a schedule (.sched)' });
    await rejects(['lower', ex('perceus/map.lam')], 'error:', { hint: 'is a λ1 program (.lam)' });
    await rejects(['rc', ex('sec22.alg')], 'error:', { hint: 'expects a λ1 program (.lam)' });
    await rejects(['schedule', ex('sec22.alg'), '--schedule', ex('sec22.alg')], "unknown directive 'pipeline'");
  });
});

describe('huge numbers and negative windows', () => {
  it('huge windows are refused before anything is allocated', async () => {
    await rejects(['run', ex('sec22.alg'), '--window', '0+99999999999999999999'], 'more than the limit');
    await rejects(['compare', ex('sec22.alg'), sec22Tgt, '--window', '0+99999999999999999999'], 'more than the limit');
    await rejects(['step', sec22Tgt, '--window', '0+99999999999999999999'], /needs more than 2\^53 points/);
    await rejects(['exec', ex('sec22.alg'), '--window', '0+99999999999999999999'], 'more than the limit');
  });
  it('a huge window position is exact', async () => {
    const r = await runCli(['run', ex('sec22.alg'), '--window', '99999999999999999999+1', '--json']);
    expect(r.code).toBe(0);
    // f(x) = x² + (x+1)², exactly.
    const x = 99999999999999999999n;
    expect(r.stdout).toContain(String(x * x + (x + 1n) * (x + 1n)));
  });
  it('huge constants in a program and in an expression stay exact or are refused', async () => {
    const r = await runCli(['expr', '99999999999999999999 * 99999999999999999999']);
    expect(r).toMatchObject({ code: 0, stdout: '9999999999999999999800000000000000000001\n' });
    const p = temp('alg', 'pipeline f() {\n  func f(x) = x * 99999999999999999999999;\n}\n');
    const q = await runCli(['run', p, '--window', '0+2', '--json']);
    expect(q.code).toBe(0);
    expect(q.stdout).toContain('99999999999999999999999');
    const s = temp('sched', 'split f.x by 99999999999999999999999\n');
    wellBehaved(await runCli(['exec', ex('sec22.alg'), '--schedule', s, '--window', '0+3']));
  });
  it('negative window lengths are refused with a hint', async () => {
    for (const args of [
      ['run', ex('sec22.alg')],
      ['step', sec22Tgt],
      ['compare', ex('sec22.alg'), sec22Tgt],
      ['exec', ex('sec22.alg')],
      ['lower', ex('sec22.alg'), '--fill', sec22Bounds],
    ]) {
      await rejects([...args, '--window', '0+-1'], 'a window length may not be negative', { hint: 'LEN must be 0 or more' });
    }
  });
  it('--window=-3+5 and --window -3+5 both work on every command that takes --window', async () => {
    const commands = [
      ['run', ex('sec22.alg')],
      ['step', sec22Tgt],
      ['compare', ex('sec22.alg'), sec22Tgt],
      ['exec', ex('sec22.alg')],
      ['bounds', ex('sec22.alg')],
      ['lower', ex('sec22.alg'), '--fill', sec22Bounds],
    ];
    for (const args of commands) {
      const joined = await runCli([...args, '--window=-3+5']);
      const split = await runCli([...args, '--window', '-3+5']);
      expect(joined.code, `${args[0]}: ${joined.stderr}`).toBe(0);
      expect(split).toEqual(joined);
    }
    const run = await runCli(['run', ex('sec22.alg'), '--window', '-3+5', '--json']);
    expect(JSON.parse(run.stdout)).toMatchObject({ window: [[-3, 5]], values: [13, 5, 1, 1, 5] });
  });
});

describe('exit codes of checks', () => {
  it('a target program that disagrees with its algorithm exits 1; one that agrees exits 0', async () => {
    const wrong = temp('tgt', SEC22_TGT.replace('g.s0.x * g.s0.x', 'g.s0.x + g.s0.x'));
    const bad = await runCli(['compare', ex('sec22.alg'), wrong, '--window', '0+4']);
    expect(bad.code).toBe(1);
    expect(bad.stdout).not.toContain('equal: the target agrees');
    expect((await runCli(['compare', ex('sec22.alg'), sec22Tgt, '--window', '0+4'])).code).toBe(0);
  });
  it('an annotated λ1 program that is not derivable exits 1', async () => {
    const l = temp('lam', 'fun main() {\n  val x = 1;\n  drop x;\n  drop x;\n  x\n}\n');
    const r = await runCli(['rc', l, '--annotated']);
    wellBehaved(r);
    expect([1, 2]).toContain(r.code);
  });
});

describe('the slow commands (C compiler, Z3) on bad input', () => {
  it('codegen: wrong kinds, bad options, unwritable output', async () => {
    await rejects(['codegen', ex('perceus/map.lam')], 'error:');
    await rejects(['codegen', ex('sec22.alg'), '--fault', 'nope'], "unknown --fault 'nope'");
    await rejects(['codegen', ex('sec22.alg'), '-o', join(dir, 'no-such-dir', 'out.c')], 'cannot write');
    await rejects(['codegen', ex('sec22.alg'), '--engine', 'beta9'], "unknown bounds engine 'beta9'");
  });
  it('validate: a window that does not fit the program is bad input, not an inconclusive verdict', async () => {
    await rejects(['validate', ex('sec22.alg'), '--window', '0+2,0+2', '--inputs', '1'], 'output dimensions but the window gives 2');
    await rejects(['validate', ex('sec22.alg'), '--window', '0+2', '--param', 'k=1', '--inputs', '1'], "unknown parameter 'k'");
    await rejects(['validate', ex('sec22.alg'), '--window', '0+-2'], 'may not be negative');
  });
  it('validate accepts --window=-3+5 and --window -3+5 alike', async () => {
    const joined = await runCli(['validate', ex('sec22.alg'), '--window=-3+5', '--inputs', '1']);
    const split = await runCli(['validate', ex('sec22.alg'), '--window', '-3+5', '--inputs', '1']);
    expect(joined.code, joined.stderr).toBe(0);
    expect(joined.stdout).toContain('window=-3+5');
    expect(split).toEqual(joined);
  }, 60_000);
  it('bounds --verify proves, and its bad options are refused before the solver starts', async () => {
    const r = await runCli(['bounds', ex('sec22.alg'), '--verify']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[CHECK-Z3] proved');
    await rejects(['bounds', ex('sec22.alg'), '--verify', '--range', 'x.len=5..2'], 'the range is empty', { hint: 'LO' });
  }, 60_000);
});

describe('plug-in modules that misbehave are the user\'s fault (exit 2)', () => {
  const sched = temp('sched', 'frob f.x\n');
  it('a directive module whose exported function throws', async () => {
    const m = temp('mjs', 'export default () => { throw new TypeError("no directives today"); };\n');
    await rejects(['schedule', '--list', '--directive', m], `${m}:1:30: error: directive module '${m}' failed while creating its directives: no directives today`, { hint: 'fix the function' });
    await rejects(['schedule', ex('sec22.alg'), '--schedule', sched, '--directive', m], 'failed while creating its directives');
  });
  it('a directive whose apply throws or returns no program', async () => {
    const directive = (name: string, apply: string) =>
      `{ name: '${name}', phase: 'loops', params: [{ name: 'loop', type: 'loop' }], validate() {}, apply(t) { ${apply} }, generate() { return []; } }`;
    const m = temp('mjs', `export default [${directive('frob', 'return null.x;')}, ${directive('frob-junk', 'return 5;')}];\n`);
    await rejects(['schedule', ex('sec22.alg'), '--schedule', sched, '--directive', m], `${sched}:1:1: error: frob f.x: directive 'frob' from ${m} failed`);
    await rejects(['exec', ex('sec22.alg'), '--window', '0+3', '--schedule', temp('sched', 'frob-junk f.x\n'), '--directive', m], 'returned something that is not a program');
  });
  it('a bounds engine that throws or answers nonsense', async () => {
    const throws = temp('mjs', 'export default { name: "bad", complete() { throw new TypeError("engine boom"); } };\n');
    const junk = temp('mjs', 'export default { name: "bad", complete() { return { ok: true, completion: { "?cpu.min(f.x)": 42 } }; } };\n');
    await rejects(['bounds', ex('sec22.alg'), '--engine', throws], "bounds engine 'bad' threw: engine boom", { hint: 'ok: false' });
    await rejects(['exec', ex('sec22.alg'), '--window', '0+3', '--engine', junk], 'returned a malformed answer');
    await rejects(['bounds', ex('sec22.alg'), '--engine', ex('sec22.alg')], 'cannot load bounds engine module');
  });
});

describe('inputs nested too deeply for the recursive front ends', () => {
  const parens = (n: number, inner: string) => '('.repeat(n) + inner + ')'.repeat(n);
  it('deep parentheses and very long sums are refused where they pass the limit of spec/syntax.md (exit 2)', async () => {
    const deep = temp('alg', `pipeline f() {\n  func f(x) = ${parens(20000, 'x')};\n}\n`);
    const long = temp('alg', `pipeline f() {\n  func f(x) = ${Array(50000).fill('x').join(' + ')};\n}\n`);
    for (const args of [['check', deep], ['run', deep, '--window', '0+2'], ['check', long], ['lower', long], ['expr', parens(20000, '1')]]) {
      await rejects(args, 'nesting deeper than 256 levels [SYNTAX-DEPTH]', { hint: 'split' });
    }
    await rejects(['rc', temp('lam', `fun main() {\n  ${parens(20000, '1')}\n}\n`)], '[SYNTAX-DEPTH]', { hint: 'split' });
    await rejects(['step', temp('tgt', `pipeline f(; x in (x.min, x.len)):\n{\n  allocate f(x in (x.min, x.len));\n  ${'if 1 then '.repeat(20000)}nop\n}\n`), '--window', '0+2'], '[SYNTAX-DEPTH]', { hint: 'split' });
  });
});
