// Regressions from trying refsem as a new user: the defaults of repeatable options were printed
// twice in `fuzz --help` and `start --help`; `select(r = 0, …)` said only "expected ')'";
// `rc --print` renamed constructor fields to f1, f2, ….
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

describe('first-hour rough edges', () => {
  it.each(['fuzz', 'start'])('%s --help prints each default once', async (cmd) => {
    const r = await runCli([cmd, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('(default: [])');
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('property to check, repeatable (default: all of confluence,');
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('load a user directive module, repeatable (default: none)');
  });

  it('a single = inside an argument list hints that equality is ==', async () => {
    const r = await runCli(['expr', 'select(1 = 0, 2, 3)']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("<expr>:1:10: error: expected ')' but found '='");
    expect(r.stderr).toContain("hint: equality is written '=='");
  });

  it('rc --print keeps the field names the type declares', async () => {
    const { examplesDir } = await import('../support/files.js');
    const r = await runCli(['rc', `${examplesDir}/perceus/map.lam`, '--print']);
    expect(r.stdout.split('\n')[0]).toBe('type list { Nil; Cons(head, tail) }');
  });

  it('repeated --property options still add up', async () => {
    const { scratchDir } = await import('../support/files.js');
    const r = await runCli(['fuzz', '--runs', '40', '--seed', '1', '--jobs', '1', '--property', 'race-free', '--property', 'roundtrip', '--out', scratchDir('refsem-props-'), '--json']);
    const summary = JSON.parse(r.stdout.trim().split('\n').pop()!) as { properties: Record<string, unknown> };
    expect(Object.keys(summary.properties).sort()).toEqual(['race-free', 'roundtrip']);
  });
});
