// Halide rules checked on worker threads (spec/simplify.md [HR-BUDGET]): the verdicts do not depend
// on how many threads share the rules. Worker threads load the built module, so this runs on dist/
// (`npm test` builds first).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = join(__dirname, '..', '..', 'dist');
const built = existsSync(join(dist, 'node', 'halide-rules-worker.js'));

// Proved in every domain, vacuous in all, refuted in uint8 by evaluation, and by Z3 (three values).
const RULES = `
rewrite(x - x, 0)
rewrite(x * 2, x, x > 0 && x < 0)
rewrite(x - 1 < x, true)
rewrite(x + y + c0 < y, x < 0 - c0)
`;

describe('verifyPrepared', () => {
  it.skipIf(!built)('gives the same verdicts on one thread and on two', async () => {
    const load = async <T>(m: string): Promise<T> => (await import(pathToFileURL(join(dist, m)).href)) as T;
    const { readRuleFile } = await load<typeof import('../../src/simplify/halide/parse.js')>('simplify/halide/parse.js');
    const { prepare } = await load<typeof import('../../src/simplify/halide/report.js')>('simplify/halide/report.js');
    const { verifyPrepared } = await load<typeof import('../../src/node/halide-rules-run.js')>('node/halide-rules-run.js');
    const { shutdownZ3 } = await load<typeof import('../../src/expr/smt.js')>('expr/smt.js');
    const prepared = prepare(readRuleFile(RULES, 'inline.hrules'));
    const verdicts = async (jobs: number) => {
      const got = await verifyPrepared(prepared, { jobs, domains: ['halide', 'uint8', 'int16'] });
      return prepared.map((p) => {
        const v = got.get(p);
        // The verdict in each domain; not the counterexample, which is whichever model Z3 finds.
        return `${p.rule.line} ${v?.status} ${v && 'domains' in v ? JSON.stringify(v.domains) : ''}`;
      });
    };
    try {
      const one = await verdicts(1);
      expect(new Set(one.map((l) => l.split(' ')[1]))).toEqual(new Set(['proved', 'refuted', 'vacuous']));
      expect(await verdicts(2)).toEqual(one);
    } finally {
      await shutdownZ3();
    }
  });
});
