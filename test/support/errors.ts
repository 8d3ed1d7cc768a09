// Expecting user errors (src/diag.ts) in tests.
import { UserError } from '../../src/diag.js';

/** The UserError `f` throws; fails the test when it throws something else or nothing. */
export function userError(f: () => unknown): UserError {
  try {
    f();
  } catch (e) {
    if (e instanceof UserError) return e;
    throw e;
  }
  throw new Error('expected a UserError, but nothing was thrown');
}
