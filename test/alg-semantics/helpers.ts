// Shared helpers for the algorithm tests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../src/diag.js';

export const examplesDir = join(__dirname, '..', '..', 'examples');
export const example = (name: string): string => readFileSync(join(examplesDir, name), 'utf8');

/** Runs f, expecting a UserError; returns it. */
export function userError(f: () => unknown): UserError {
  try {
    f();
  } catch (e) {
    if (e instanceof UserError) return e;
    throw e;
  }
  throw new Error('expected a UserError, but nothing was thrown');
}
