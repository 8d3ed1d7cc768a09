// Programs that must go wrong are reported by both executors, for every kind of wrong.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WRONGS, wrongPrograms } from '../../src/fuzz/properties/wrong-programs.js';
import { DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { makeEnv } from '../../src/fuzz/make-env.js';
import { execTgt } from '../../src/target-semantics/exec.js';

describe('wrong-programs property', () => {
  it.each(WRONGS.map((w) => [w]))('%s is reported by the fast executor and the machine', async (wrong) => {
    const env = await makeEnv(DEFAULT_CONFIG);
    fc.assert(fc.property(wrongPrograms.arbitrary(env).filter((g) => g.wrong === wrong), (g) => {
      const c = wrongPrograms.concretize(g, env);
      expect(wrongPrograms.check(c, env)).toEqual({ status: 'pass' });
      const o = execTgt(c.program, c.input);
      if (wrong === 'unwritten-read' || wrong === 'wrong-value') expect(o.kind).toBe('done');
      else expect(o.kind === 'stuck' && o.stuck.kind).toBe(wrong);
    }), { numRuns: 30 });
  });

  it('fails when the program behaves: a reported wrong is what the executors said, not what was built', async () => {
    const env = await makeEnv(DEFAULT_CONFIG);
    const c = wrongPrograms.concretize({ wrong: 'oob-write', min: 0, len: 2, k: 2, past: 1, c: 3 }, env);
    // The same program labelled with another wrong: the executors report oob-write, not a race.
    const r = wrongPrograms.check({ ...c, wrong: 'data-race' }, env);
    expect(r).toMatchObject({ status: 'fail', verdict: 'data-race-unreported' });
    const again = wrongPrograms.decode(wrongPrograms.encode(c), env);
    expect(wrongPrograms.check(again, env)).toEqual({ status: 'pass' });
  });
});
