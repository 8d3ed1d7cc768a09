// Bad input never crashes: random and mutated sources end in a pipeline or a UserError with a
// location, never in another exception (parser and validator).
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diag.js';
import { parsePipeline } from '../../src/alg-semantics/parse.js';
import { checkPipeline } from '../../src/alg-semantics/validate.js';
import { printPipeline } from '../../src/alg-semantics/print.js';
import { arbPipeline } from '../../src/fuzz/arbitraries/alg.js';
import { example, examplesDir } from '../support/files.js';

const seeds = readdirSync(examplesDir).filter((f) => f.endsWith('.alg')).map(example);
const TOKENS = ['pipeline', 'func', 'rdom', 'in', 'if', '(', ')', '{', '}', ',', ';', '=', '<-', '+', '-', '*', '/', '%',
  '<', '>', '==', '!=', '&&', '||', '!', 'x', 'y', 'r', 'f', 'g', '0', '1', '-3', '99999999999999999999', 'select', 'min', 'max', 'err.rdom', '.', '@', '?', '$', '\n', ' '];

/** Parse and check; returns 'ok' or 'user-error'. Any other exception fails the property. */
function outcome(src: string): 'ok' | 'user-error' {
  try {
    const errs = checkPipeline(parsePipeline(src, 'fuzz.alg'));
    for (const e of errs) expect(e.loc?.file).toBe('fuzz.alg');
    return errs.length === 0 ? 'ok' : 'user-error';
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    expect(e.loc?.file).toBe('fuzz.alg');
    expect(e.loc!.line).toBeGreaterThan(0);
    return 'user-error';
  }
}

/** A source edited at a random place: delete, duplicate or insert a slice or a token. */
const arbMutant = fc
  .tuple(fc.oneof(fc.constantFrom(...seeds), arbPipeline({ maxDims: 3 }).map(printPipeline)), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 12 }), fc.integer({ min: 0, max: 2 }), fc.constantFrom(...TOKENS)), { minLength: 1, maxLength: 4 }))
  .map(([src, edits]) => edits.reduce((s, [at, n, kind, tok]) => {
    const i = at % (s.length + 1);
    if (kind === 0) return s.slice(0, i) + s.slice(i + n);
    if (kind === 1) return s.slice(0, i) + s.slice(i, i + n) + s.slice(i);
    return `${s.slice(0, i)} ${tok} ${s.slice(i)}`;
  }, src));

describe('parser and validator robustness', () => {
  it('random token soups end in a result or a UserError', () => {
    fc.assert(fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }).map((t) => t.join(' ')), (src) => void outcome(src)), { numRuns: 4000, seed: 1 });
  });

  it('random strings end in a result or a UserError', () => {
    fc.assert(fc.property(fc.string({ maxLength: 80, unit: 'binary' }), (src) => void outcome(src)), { numRuns: 2000, seed: 2 });
  });

  it('mutated valid programs end in a result or a UserError, and both happen', () => {
    const seen = new Set<string>();
    fc.assert(fc.property(arbMutant, (src) => void seen.add(outcome(src))), { numRuns: 5000, seed: 3 });
    expect([...seen].sort()).toEqual(['ok', 'user-error']);
  });
});
