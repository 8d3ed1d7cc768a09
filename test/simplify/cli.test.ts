// The simplifier's commands on bad input: located errors and exit code 2, never a stack trace.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { scratchDir } from '../support/files.js';

describe('refsem simplify and verify-rules on bad input', () => {
  it('a malformed expression is located', async () => {
    const r = await runCli(['simplify', '(x + 3']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("<expr>:1:7: error: expected ')' but found the end of the input\n  hint: parentheses must balance\n");
  });

  it('an unknown domain is refused at the command line', async () => {
    const r = await runCli(['simplify', 'x', '--domain', 'reals']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("<command line> --domain reals: error: invalid --domain 'reals': expected values or integers");
  });

  it('a rule file with an unknown operator is located, and a missing one named', async () => {
    const dir = scratchDir('refsem-rules-');
    const file = join(dir, 'r.rules');
    writeFileSync(file, 'values ok: x + 0 -> x;\nintegers bad: x -> abs(x);\n');
    const r = await runCli(['verify-rules', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${file}:2:20: error: unknown operator 'abs'\n  hint: the operators are + - * / % && || ! < > == <= >= != and select, min, max\n`);
    const m = await runCli(['verify-rules', join(dir, 'none.rules')]);
    expect(m.code).toBe(2);
    expect(m.stderr).toContain('no such file');
  });
});
