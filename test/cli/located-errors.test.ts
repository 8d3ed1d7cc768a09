// Bad input reaching the commands that read JSON files, option values and plug-in modules, and
// input nested too deeply: each ends with exit code 2 and `FILE:LINE:COL: error: what` followed
// by `hint: what to do` (src/diag.ts), never with the loader's or parser's raw text.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../support/cli.js';
import { examplesDir, scratch } from '../support/files.js';

const { dir, file } = scratch('refsem-located-');
const ex = (f: string) => join(examplesDir, f);
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Exit 2, stderr `LOC: error: MESSAGE…` and a hint containing `hint`, no stack trace. */
function badInput(r: CliResult, loc: string, message: string | RegExp, hint: string | RegExp): void {
  expect(r.code, r.stderr).toBe(2);
  const msg = typeof message === 'string' ? esc(message) : message.source;
  expect(r.stderr).toMatch(new RegExp(`^${esc(loc)}: error: ${msg}`));
  const h = typeof hint === 'string' ? esc(hint) : hint.source;
  expect(r.stderr).toMatch(new RegExp(`\\n  hint: .*${h}`));
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stdout).toBe('');
}

const CMD = '<command line>';
/** The place of a bad option value on the command line. */
const arg = (flag: string, value: string) => `${CMD} ${flag} ${/^[\w.+,:=/-]+$/.test(value) ? value : JSON.stringify(value)}`;

// ---------------------------------------------------------------------------------------------

/** A reproducer as a campaign writes it (the unsound example directive races). */
const REPRO = {
  format: 'refsem-reproducer/1',
  property: 'confluence',
  verdict: 'unsafe-data-race',
  seed: 1,
  check: 0,
  check_seed: 1,
  engine: 'beta0',
  directives: [ex('directives/unsound-parallel.mjs')],
  focus: 'parallel-any',
  key: 'confluence/directive:parallel-any',
  case: {
    program: 'pipeline f0() {\n  func f0(x) {\n    x;\n    rdom(r = (0, 2)) in (0) <- r;\n  }\n}\n',
    input: { window: [['0', '1']], params: {} },
    schedule: 'parallel-any f0.s1.r\n',
  },
  expected: "the algorithm's values on window 0+1",
  actual: 'a data race',
  shrinks: 0,
};
const repro = (name: string, r: object) => file(name, `${JSON.stringify(r, null, 2)}\n`);

describe('refsem replay FILE', () => {
  it('replays a well-formed reproducer (the fixture of the cases below)', async () => {
    const r = await runCli(['replay', repro('good.json', REPRO)]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('replayed verdict: unsafe-data-race (reproduced)');
  });
  it('a missing file or a directory: at the command line', async () => {
    const missing = join(dir, 'missing.json');
    badInput(await runCli(['replay', missing]), CMD, `cannot read reproducer '${missing}': no such file`, 'refsem fuzz wrote into its --out directory');
    badInput(await runCli(['replay', dir]), CMD, `cannot read reproducer '${dir}': is a directory`, '--out directory');
  });
  it('a JSON syntax error: at its line and column when JSON.parse gives its position', async () => {
    const f = file('syntax.json', '{\n  "format": "refsem-reproducer/1"\n  "property": "confluence"\n}\n');
    badInput(await runCli(['replay', f]), `${f}:3:3`, "not valid JSON: Expected ',' or '}' after property value", 'a reproducer is one JSON object');
    const cut = file('cut.json', '{\n  "format": ');
    badInput(await runCli(['replay', cut]), `${cut}:2:13`, 'not valid JSON: Unexpected end of JSON input', 'refsem fuzz');
    const trailing = file('trailing.json', '{}\n}');
    badInput(await runCli(['replay', trailing]), `${trailing}:2:1`, 'not valid JSON: Unexpected non-whitespace character after JSON\n', 'refsem fuzz');
    const junk = file('junk.json', 'reproducer\n');
    badInput(await runCli(['replay', junk]), `${junk}:1:1`, 'not valid JSON', 'refsem fuzz');
  });
  it('JSON that is not a reproducer, or a reproducer with a malformed field: at the file', async () => {
    badInput(await runCli(['replay', file('list.json', '[1, 2]')]), `${join(dir, 'list.json')}:1:1`, 'not a valid reproducer: expected a JSON object', 'refsem fuzz');
    const other = repro('other.json', { ...REPRO, format: 'something/2' });
    badInput(await runCli(['replay', other]), `${other}:1:1`, 'not a refsem reproducer (format "something/2")', '"format": "refsem-reproducer/1"');
    const noProp = repro('no-prop.json', { ...REPRO, property: 7 });
    badInput(await runCli(['replay', noProp]), `${noProp}:1:1`, 'not a valid reproducer: "property" must be a string', 'not edited by hand');
    const badCase = repro('bad-case.json', { ...REPRO, case: { ...REPRO.case, program: 5 } });
    badInput(await runCli(['replay', badCase]), `${badCase}:1:1`, 'not a valid reproducer: "case.program" must be a string', 'not edited by hand');
    const dirs = repro('dirs.json', { ...REPRO, directives: 'x.mjs' });
    badInput(await runCli(['replay', dirs]), `${dirs}:1:1`, 'not a valid reproducer: "directives" must be a list', 'not edited by hand');
  });
  it('what the reproducer names and cannot be found is reported at the reproducer', async () => {
    const prop = repro('prop.json', { ...REPRO, property: 'no-such-property' });
    badInput(await runCli(['replay', prop]), `${prop}:1:1`, "unknown property 'no-such-property'", 'the properties are: ');
    const engine = repro('engine.json', { ...REPRO, engine: 'beta9' });
    badInput(await runCli(['replay', engine]), `${engine}:1:1`, "unknown bounds engine 'beta9'", 'beta0');
    const module = repro('module.json', { ...REPRO, directives: [join(dir, 'gone.mjs')] });
    badInput(await runCli(['replay', module]), `${module}:1:1`, `cannot load directive module '${join(dir, 'gone.mjs')}': no such file`, 'check the path');
  });
});

// ---------------------------------------------------------------------------------------------

describe('refsem merge DIR…', () => {
  it('a directory without summary.json: at the command line, saying to run a campaign first', async () => {
    const empty = join(dir, 'no-campaign');
    mkdirSync(empty);
    badInput(await runCli(['merge', empty]), CMD, `no campaign summary in '${empty}' (expected ${join(empty, 'summary.json')})`, `run a campaign with refsem fuzz --out ${empty} first`);
    badInput(await runCli(['merge', join(dir, 'nowhere')]), CMD, 'no campaign summary in', '--out');
  });
  it('an unreadable summary.json: at its line and column, pointing to the --out directories', async () => {
    const d = join(dir, 'broken-campaign');
    mkdirSync(d);
    const s = file('broken-campaign/summary.json', '{"seed": 1,\n "runs": 2,,\n}');
    badInput(await runCli(['merge', d]), `${s}:2:12`, 'not valid JSON', 'pass the --out directories of finished campaigns');
  });
  it('a summary.json that is not a campaign summary: at the file', async () => {
    const d = join(dir, 'odd-campaign');
    mkdirSync(d);
    const s = file('odd-campaign/summary.json', '{"seed": 1, "runs": 2, "elapsed_s": 1, "jobs": 1}');
    badInput(await runCli(['merge', d]), `${s}:1:1`, 'not a campaign summary: "failures" must be a list', '--out directories');
    file('odd-campaign/summary.json', '"summary"');
    badInput(await runCli(['merge', d]), `${s}:1:1`, 'not a campaign summary: expected a JSON object', '--out directories');
  });
});

// ---------------------------------------------------------------------------------------------

describe('option values of fuzz, start and check-directive', () => {
  // [flag, bad value, what is wrong, a part of the hint that lists the accepted values]
  const cases: [string, string, string, string][] = [
    ['--jobs', 'abc', 'expected a whole number', 'a whole number from 1 to 256, e.g. --jobs 1'],
    ['--jobs', '0', 'must be at least 1', 'from 1 to 256'],
    ['--jobs', '257', 'must be at most 256', 'from 1 to 256'],
    ['--jobs', '99999999999999999999', 'must be at most 256', 'from 1 to 256'],
    ['--runs', '-3', 'expected a whole number', 'a whole number of at least 1, e.g. --runs 1'],
    ['--runs', '0', 'must be at least 1', 'of at least 1'],
    ['--runs', '99999999999999999999', 'must be at most 9007199254740991', 'of at least 1'],
    ['--seed', '1e3', 'expected an integer', 'give any integer, e.g. --seed 42'],
    ['--time', 'soon', 'expected a duration such as 60s, 2m or 500ms', 'ms, s (the default), m or h, e.g. --time 60s'],
    ['--time', '0s', 'must be positive', 'a positive duration'],
    ['--budget', '0.0001ms', 'must be positive', 'e.g. --budget 60s'],
    ['--budget', '9'.repeat(400), 'is too long', 'a positive duration'],
    ['--shard', '2/2', 'expected i/N with 0 <= i < N', 'shards are numbered from 0: give i/N with 0 <= i < N, e.g. --shard 0/4'],
    ['--shard', 'x', 'expected i/N with 0 <= i < N', 'numbered from 0'],
  ];
  for (const command of ['fuzz', 'start']) {
    it(`${command}: each bad value at the command line, with the accepted values`, async () => {
      for (const [flag, value, what, accepted] of cases) {
        // --runs or --time (not both), so that a bad value of the other is what fails.
        const limit = flag === '--runs' || flag === '--time' ? [] : ['--runs', '1'];
        badInput(await runCli([command, ...limit, flag, value, '--out', join(dir, 'never')]), arg(flag, value), `invalid ${flag} '${value}': ${what}`, accepted);
      }
    });
  }
  it('check-directive parses its values before loading anything', async () => {
    for (const [flag, value, what, accepted] of cases) {
      const limit = flag === '--runs' || flag === '--time' ? [] : ['--runs', '1'];
      badInput(await runCli(['check-directive', ex('directives/tile.mjs'), ...limit, flag, value]), arg(flag, value), `invalid ${flag} '${value}': ${what}`, accepted);
    }
  });
  it('--time and --runs together, an unknown --backend', async () => {
    badInput(await runCli(['fuzz', '--time', '1s', '--runs', '3']), CMD, 'give either --time or --runs, not both', 'drop one of them');
    badInput(await runCli(['start', '--time', '1s', '--runs', '3']), CMD, 'give either --time or --runs, not both', 'drop one of them');
    badInput(await runCli(['check-directive', ex('directives/tile.mjs'), '--time', '1s', '--runs', '3']), CMD, 'give either --time or --runs, not both', 'drop one of them');
    badInput(await runCli(['fuzz', '--runs', '1', '--backend', 'gpu']), arg('--backend', 'gpu'), "invalid --backend 'gpu': expected c, simd or halide", '--backend simd');
  });
});

// ---------------------------------------------------------------------------------------------

describe('plug-in modules (--directive, --engine, check-directive)', () => {
  const DIRECTIVE_HINT = 'default export is a directive made with defineDirective';
  const ENGINE_HINT = 'default export is an engine made with defineBoundsEngine';
  const syntax = file('syntax.mjs', 'export default {\n  name: "frob",\n  phase: = 3\n};\n');
  // Each command that loads a module, with where its module goes.
  const loaders: [string, (m: string) => string[], string][] = [
    ['schedule --directive', (m) => ['schedule', '--list', '--directive', m], DIRECTIVE_HINT],
    ['exec --directive', (m) => ['exec', ex('sec22.alg'), '--window', '0+2', '--schedule', ex('sec22.sched'), '--directive', m], DIRECTIVE_HINT],
    ['check-directive', (m) => ['check-directive', m, '--runs', '1'], DIRECTIVE_HINT],
    ['fuzz --directive', (m) => ['fuzz', '--runs', '1', '--directive', m, '--out', join(dir, 'never')], DIRECTIVE_HINT],
    ['bounds --engine', (m) => ['bounds', ex('sec22.alg'), '--engine', m], ENGINE_HINT],
    ['fuzz --engine', (m) => ['fuzz', '--runs', '1', '--engine', m, '--out', join(dir, 'never')], ENGINE_HINT],
  ];
  const kind = (hint: string) => (hint === ENGINE_HINT ? 'bounds engine' : 'directive');
  for (const [name, args, hint] of loaders) {
    it(`${name}: a syntax error at its line and column, a missing file at the command line`, async () => {
      badInput(await runCli(args(syntax)), `${syntax}:3:10`, `cannot load ${kind(hint)} module '${syntax}': syntax error: Unexpected token '='`, 'fix the syntax error; pass the path of an ES module (.mjs)');
      const gone = join(dir, 'gone.mjs');
      badInput(await runCli(args(gone)), CMD, `cannot load ${kind(hint)} module '${gone}': no such file`, hint);
    });
  }
  it('a module that throws while it loads: where it threw', async () => {
    const m = file('throws.mjs', 'const a = 1;\nthrow new RangeError("not today");\n');
    badInput(await runCli(['schedule', '--list', '--directive', m]), `${m}:2:7`, `cannot load directive module '${m}': not today`, DIRECTIVE_HINT);
    badInput(await runCli(['bounds', ex('sec22.alg'), '--engine', m]), `${m}:2:7`, `cannot load bounds engine module '${m}': not today`, ENGINE_HINT);
  });
  it('a module importing a missing file, a file that is no JavaScript module', async () => {
    const m = file('imports.mjs', 'import "./nothing-here.mjs";\nexport default {};\n');
    badInput(await runCli(['schedule', '--list', '--directive', m]), `${m}:1:1`, /cannot load directive module '.*': .*nothing-here\.mjs/, DIRECTIVE_HINT);
    badInput(await runCli(['schedule', '--list', '--directive', ex('sec22.alg')]), `${ex('sec22.alg')}:1:1`, `cannot load directive module '${ex('sec22.alg')}': not a JavaScript module (expected a .mjs or .js file)`, DIRECTIVE_HINT);
  });
  it('a module that exports the wrong thing: at the module, saying what to export', async () => {
    const num = file('number.mjs', 'export default 42;\n');
    badInput(await runCli(['schedule', '--list', '--directive', num]), `${num}:1:1`, `directive module '${num}' exports a number where a directive is expected`, 'export a directive made with defineDirective as the default export');
    const none = file('none.mjs', 'export const frob = 1;\n');
    badInput(await runCli(['schedule', '--list', '--directive', none]), `${none}:1:1`, `directive module '${none}' has no default export`, 'export a directive made with defineDirective as the default export');
    badInput(await runCli(['bounds', ex('sec22.alg'), '--engine', none]), `${none}:1:1`, `module '${none}' does not export a bounds engine`, 'export an engine made with defineBoundsEngine as the default export');
    const fn = file('fn.mjs', 'export default (api) => {\n  const d = null;\n  return d.name;\n};\n');
    badInput(await runCli(['schedule', '--list', '--directive', fn]), `${fn}:3:12`, `directive module '${fn}' failed while creating its directives`, 'fix the function');
  });
});

// ---------------------------------------------------------------------------------------------

describe('[SYNTAX-DEPTH] input nested too deeply', () => {
  const parens = (n: number, inner: string) => '('.repeat(n) + inner + ')'.repeat(n);
  const DEPTH = 'nesting deeper than 256 levels [SYNTAX-DEPTH]';
  const HINT = 'spec/syntax.md allows at most 256 levels';
  const alg = (body: string) => file('deep.alg', `pipeline f() {\n  func f(x) = ${body};\n}\n`);
  it('256 levels are accepted by every front end and the commands behind them', async () => {
    const ok = alg(parens(256, 'x'));
    for (const args of [['check', ok], ['run', ok, '--window', '0+2'], ['lower', ok], ['exec', ok, '--window', '0+2']]) {
      expect((await runCli(args)).code).toBe(0);
    }
    expect((await runCli(['expr', parens(256, '1')])).stdout).toBe('1\n');
    expect((await runCli(['run', alg(Array(257).fill('x').join(' + ')), '--window', '1+1', '--json'])).stdout).toContain('"values":[257]');
  });
  it('an algorithm: at the parenthesis that opens level 257', async () => {
    for (const n of [257, 20000]) {
      const f = alg(parens(n, 'x'));
      for (const args of [['check', f], ['run', f, '--window', '0+2'], ['fmt', f], ['lower', f], ['exec', f, '--window', '0+2'], ['bounds', f]]) {
        badInput(await runCli(args), `${f}:2:${15 + 256}`, DEPTH, HINT);
      }
    }
  });
  it('a long sum: at the 257th operator, where the tree it builds gets too deep', async () => {
    const f = alg(Array(50000).fill('x').join(' + '));
    // `x + ` is four characters: the 257th + is at 15 + 4 · 256 + 2.
    badInput(await runCli(['check', f]), `${f}:2:${15 + 4 * 256 + 2}`, DEPTH, 'split the deeply nested or very long part');
  });
  it('prefix operators and argument lists', async () => {
    const neg = alg(`${'!'.repeat(300)}x`);
    // `!` opens a level for what follows it: the 257th `!` is the first token at level 257.
    badInput(await runCli(['check', neg]), `${neg}:2:${15 + 257}`, DEPTH, HINT);
    const calls = file('calls.alg', `pipeline f() {\n  func g(x) = x;\n  func f(x) = ${'g('.repeat(300)}x${')'.repeat(300)};\n}\n`);
    // Each argument list is one level: the argument at level 257 is the 258th `g`.
    badInput(await runCli(['check', calls]), `${calls}:3:${15 + 2 * 257}`, DEPTH, HINT);
  });
  it('refsem expr', async () => {
    badInput(await runCli(['expr', parens(20000, '1')]), `<expr>:1:257`, DEPTH, HINT);
  });
  it('a target program: nested statements', async () => {
    const t = file('deep.tgt', `pipeline f(; x in (x.min, x.len)):\n{\n  allocate f(x in (x.min, x.len));\n  ${'if 1 then '.repeat(20000)}nop\n}\n`);
    // The block is level 1, each if one more: the 256th if opens level 257.
    badInput(await runCli(['step', t, '--window', '0+2']), `${t}:4:${3 + 10 * 255}`, DEPTH, HINT);
  });
  it('a λ1 program: nested expressions and long chains of bindings', async () => {
    const l = file('deep.lam', `fun main() {\n  ${parens(20000, '1')}\n}\n`);
    // The body is level 1 and each parenthesis opens one more: level 257 starts after 256 of them.
    badInput(await runCli(['rc', l]), `${l}:2:${3 + 256}`, DEPTH, HINT);
    const vals = file('vals.lam', `fun main() {\n  ${'val x = 1; '.repeat(300)}x\n}\n`);
    // The 256th `val` is at level 256 (the body is level 1), so the `1` it binds is at level 257.
    badInput(await runCli(['rc', vals]), `${vals}:2:${3 + 11 * 255 + 8}`, DEPTH, HINT);
  });
  it('a schedule argument', async () => {
    const s = file('deep.sched', `split f.x by ${parens(300, '2')}\n`);
    badInput(await runCli(['schedule', ex('sec22.alg'), '--schedule', s]), `${s}:1:${14 + 256}`, DEPTH, HINT);
  });
});
