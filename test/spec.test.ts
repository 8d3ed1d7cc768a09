// Every runnable example in spec/*.md runs and prints what the spec says; every rule ID named in
// a spec heading is implemented in exactly one place under src/.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { extractExamples, normalizeOutput } from './support/spec-examples.js';
import { scratchDir } from './support/files.js';

const specDir = join(__dirname, '..', 'spec');
const srcDir = join(__dirname, '..', 'src');
const specs = readdirSync(specDir)
  .filter((f) => f.endsWith('.md') && f !== 'README.md' && f !== 'index.md')
  .sort();

function srcFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? srcFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

describe.each(specs)('spec/%s', (spec) => {
  const md = readFileSync(join(specDir, spec), 'utf8');
  const doc = extractExamples(md);

  it.each(doc.runs.map((r) => [`line ${r.line}: refsem ${r.argv.join(' ')}`, r] as const))('%s', async (_n, run) => {
    const dir = scratchDir('refsem-spec-');
    for (const f of doc.files) writeFileSync(join(dir, f.name), f.text);
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const r = await runCli(run.argv);
      expect(normalizeOutput(r.stdout + r.stderr)).toBe(normalizeOutput(run.expected));
      expect(r.code).toBe(run.exit);
    } finally {
      process.chdir(cwd);
    }
  });

  const ids = [...md.matchAll(/^#+ .*?\[([A-Z][A-Z0-9-]*)\]/gm)].map((m) => m[1]!);
  if (ids.length > 0) {
    const sources = srcFiles(srcDir).map((f) => ({ f, text: readFileSync(f, 'utf8') }));
    it.each(ids)('rule [%s] is implemented in exactly one module', (id) => {
      const where = sources
        .filter((s) => s.text.includes(`'${id}'`) || s.text.includes(`implements [${id}]`))
        .map((s) => s.f);
      expect(where, `modules naming rule '${id}'`).toHaveLength(1);
    });
  }
});
