// The public API is what docs/api.md documents: every value the package exports is listed there and
// every name listed there is exported, and the example at the top of the document runs as written.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';
import { scratchDir } from '../support/files.js';

const root = join(__dirname, '..', '..');
const doc = readFileSync(join(root, 'docs', 'api.md'), 'utf8');

describe('docs/api.md', () => {
  it('lists exactly the values the package exports', () => {
    const listed = [...doc.matchAll(/^\| ((?:`\w+`(?:, )?)+) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`(\w+)`/g)].map((n) => n[1]!));
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(Object.keys(api).sort());
  });

  it('its example runs against the built package and gives the values it shows', async () => {
    const code = /```js\n([\s\S]*?)```/.exec(doc)![1]!;
    const dir = scratchDir('refsem-api-');
    const file = join(dir, 'example.mjs');
    const lines = code.split('\n').map((l) => {
      // Each commented expression is checked against the value its comment shows.
      const m = /^(\S.*?);\s+\/\/ (\[.*\]|'.*')$/.exec(l);
      return m ? `expect(${m[1]}, ${JSON.stringify(m[2])});` : l;
    });
    const body = lines.join('\n').replace("from 'refsem'", `from ${JSON.stringify(pathToFileURL(join(root, 'dist', 'index.js')).href)}`);
    writeFileSync(file, `${body}\nfunction expect(got, shown) { const want = JSON.parse(shown.replace(/'/g, '"')); if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(\`\${JSON.stringify(got)} is not \${shown}\`); }\n`);
    await import(pathToFileURL(file).href);
    expect(lines.filter((l) => l.startsWith('expect(')).length).toBe(2);
  });
});
