import { readdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DiskMatrixStore } from '../../src/node/matrix-cache.js';
import { parseSwizzle } from '../../src/swizzle/parse.js';
import { synthesize } from '../../src/swizzle/synth.js';
import { runCli } from '../support/cli.js';

const file = 'examples/swizzle/stencil2d-3.swz';
const sketch = () => parseSwizzle(readFileSync(file, 'utf8'), file);
/** What a search found and how it went, without its timings. */
const outcome = (r: ReturnType<typeof synthesize>) => ({ solutions: r.solutions, states: r.states, kept: r.kept, prunedBy: r.prunedBy });

describe('[SWZ-MATRIX] reachability matrices kept on disk between runs', () => {
  it('a second run reads the matrices the first kept, and searches exactly as without them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'refsem-matrices-'));
    const plain = outcome(synthesize(sketch()));
    const first = new DiskMatrixStore(dir);
    expect(outcome(synthesize(sketch(), { matrices: first }))).toEqual(plain);
    expect([first.hits, first.writes]).toEqual([0, 1]);
    const second = new DiskMatrixStore(dir);
    expect(outcome(synthesize(sketch(), { matrices: second }))).toEqual(plain);
    expect([second.hits, second.writes]).toEqual([1, 0]);
  });

  it('a damaged entry, or one written for another program under the same name, is a miss, never a wrong matrix', () => {
    const dir = mkdtempSync(join(tmpdir(), 'refsem-matrices-'));
    const plain = outcome(synthesize(sketch()));
    synthesize(sketch(), { matrices: new DiskMatrixStore(dir) });
    const entry = join(dir, readdirSync(dir)[0]!);
    const whole = readFileSync(entry);
    writeFileSync(entry, whole.subarray(0, whole.length - 7));
    const truncated = new DiskMatrixStore(dir);
    expect(outcome(synthesize(sketch(), { matrices: truncated }))).toEqual(plain);
    expect(truncated.hits).toBe(0);
    const otherFile = 'examples/swizzle/conv1d-3.swz';
    const other = parseSwizzle(readFileSync(otherFile, 'utf8'), otherFile);
    synthesize(other, { matrices: new DiskMatrixStore(dir) });
    const foreign = readdirSync(dir).map((f) => join(dir, f)).find((f) => f !== entry)!;
    writeFileSync(entry, readFileSync(foreign));
    const swapped = new DiskMatrixStore(dir);
    expect(outcome(synthesize(sketch(), { matrices: swapped }))).toEqual(plain);
    expect(swapped.hits).toBe(0);
  });

  it('`swizzle synth --cache DIR` says where its matrices came from; without --cache nothing is kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'refsem-matrices-'));
    const a = await runCli(['swizzle', 'synth', file, '--cache', dir]);
    expect(a.stdout).toMatch(new RegExp(`matrices: computed, kept in ${dir} in \\d+ ms`));
    const b = await runCli(['swizzle', 'synth', file, '--cache', dir, '--json']);
    expect(JSON.parse(b.stdout).cache).toBe(`read from ${dir}`);
    const c = await runCli(['swizzle', 'synth', file]);
    expect(c.stdout).not.toContain('matrices:');
  });
});
