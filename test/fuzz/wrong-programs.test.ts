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
    const c = wrongPrograms.concretize({ wrong: 'oob-write', min: 0, len: 2, k: 2, past: 1, c: 3, rank: 1, dim: 0, low: false, shift: false, flow: [[0, 0]] }, env);
    // The same program labelled with another wrong: the executors report oob-write, not a race.
    const r = wrongPrograms.check({ ...c, wrong: 'data-race' }, env);
    expect(r).toMatchObject({ status: 'fail', verdict: 'data-race-unreported' });
    const again = wrongPrograms.decode(wrongPrograms.encode(c), env);
    expect(wrongPrograms.check(again, env)).toEqual({ status: 'pass' });
  });

  const base = { min: 0, len: 2, k: 2, past: 1, c: 3, rank: 1, dim: 0, low: false, shift: false, flow: [[0, 0]] } as const;

  it('builds a race where one iteration only reads what another writes', async () => {
    // Regression: the only race built was k iterations updating one point, which a detector that
    // checks writes against other iterations' writes alone still reports.
    const env = await makeEnv(DEFAULT_CONFIG);
    const c = wrongPrograms.concretize({ ...base, wrong: 'data-race', shift: true }, env);
    expect(wrongPrograms.encode(c).target).toContain('g@s1[g.s1.r + 1] <- g@s1[g.s1.r]');
    expect(wrongPrograms.check(c, env)).toEqual({ status: 'pass' });
  });

  it.each([[0, false], [0, true], [1, false], [1, true]] as const)('reads and writes a 2-D buffer outside dimension %i (below 0: %s)', async (dim, low) => {
    // Regression: out-of-bounds accesses were 1-D only, so InBounds on a second dimension went unchecked.
    const env = await makeEnv(DEFAULT_CONFIG);
    for (const wrong of ['oob-read', 'oob-write'] as const) {
      const c = wrongPrograms.concretize({ ...base, wrong, rank: 2, dim, low }, env);
      expect(wrongPrograms.encode(c).target).toContain(dim === 1 ? (low ? 'g[2, -1]' : 'g[2, 3]') : low ? 'g[-1, 2]' : 'g[3, 2]');
      expect(wrongPrograms.check(c, env)).toEqual({ status: 'pass' });
    }
  });

  it('passes an unwritten value through every operator, in every argument position', async () => {
    // Regression: ε_mem reached the output only as a bare read, never inside select, not, min, max.
    const env = await makeEnv(DEFAULT_CONFIG);
    const texts = new Set<string>();
    for (let flow = 0; flow < 15; flow++) {
      for (let at = 0; at < 3; at++) {
        const c = wrongPrograms.concretize({ ...base, wrong: 'unwritten-read', flow: [[flow, at]] }, env);
        texts.add(wrongPrograms.encode(c).target!);
        expect(wrongPrograms.check(c, env)).toEqual({ status: 'pass' });
      }
    }
    expect([...texts].some((s) => s.includes('select(g[2], 4, 5)'))).toBe(true);
    expect([...texts].some((s) => s.includes('select(3, 4, g[2])'))).toBe(true);
    expect([...texts].some((s) => s.includes('!g[2]'))).toBe(true);
    // and through several operators at once
    const chain = wrongPrograms.concretize({ ...base, wrong: 'unwritten-read', flow: [[12, 0], [14, 1], [8, 0]] }, env);
    expect(wrongPrograms.encode(chain).target).toContain('!max(3, select(g[2], 4, 5))');
    expect(wrongPrograms.check(chain, env)).toEqual({ status: 'pass' });
  });

  it('checks a batch of programs in one check, each judged as when alone, and replays it', async () => {
    const env = await makeEnv(DEFAULT_CONFIG);
    const batch = wrongPrograms.concretize({ ...base, wrong: 'oob-write', more: [{ ...base, wrong: 'data-race', shift: true }, { ...base, wrong: 'unwritten-read', flow: [[12, 0]] }] }, env);
    expect(batch.more).toHaveLength(2);
    expect(wrongPrograms.check(batch, env)).toEqual({ status: 'pass' });
    const again = wrongPrograms.decode(wrongPrograms.encode(batch), env);
    expect(again.more?.map((m) => m.wrong)).toEqual(['data-race', 'unwritten-read']);
    expect(wrongPrograms.check(again, env)).toEqual({ status: 'pass' });
    // A later program that does not go wrong as labelled fails the whole check.
    const bad = { ...batch, more: [batch.more![0]!, { ...batch.more![1]!, wrong: 'oob-read' as const }] };
    expect(wrongPrograms.check(bad, env)).toMatchObject({ status: 'fail', verdict: 'oob-read-unreported' });
  });
});
