// Reading the files named on the command line. Only the edge of refsem reads files: the semantics
// take texts, so that they run unchanged in a browser.
import { readFileSync, writeFileSync } from 'node:fs';
import { CLI_LOC, UserError, argLoc } from '../diag.js';

/** Reads a source file named on the command line; `-` is standard input. */
export function readSource(path: string): { text: string; file: string } {
  try {
    if (path === '-') return { text: readFileSync(0, 'utf8'), file: '<stdin>' };
    return { text: readFileSync(path, 'utf8'), file: path };
  } catch (e) {
    throw cannotRead(path, e);
  }
}

/**
 * A file named on the command line that cannot be read. The error is the argument's, so it is
 * reported at the command line: there is no file to point into.
 */
export function cannotRead(path: string, e: unknown, what = '', hint = 'check the path'): UserError {
  const code = (e as NodeJS.ErrnoException)?.code;
  const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String((e as Error)?.message ?? e);
  return new UserError(`cannot read ${what}'${path}': ${why}`, CLI_LOC, hint);
}

/**
 * Writes a file named by option `option` of the command line; a path that cannot be written (a
 * directory, a missing folder) is that argument's error, exit 2.
 */
export function writeOutput(path: string, text: string, option: string): void {
  try {
    writeFileSync(path, text);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException)?.code;
    const why = code === 'EISDIR' ? 'is a directory' : code === 'ENOENT' ? 'no such folder' : String((e as Error)?.message ?? e);
    throw new UserError(`cannot write '${path}': ${why}`, argLoc(option, path), code === 'EISDIR' ? `name a file, e.g. ${option} ${path.replace(/\/+$/, '')}/report.html` : 'check the path');
  }
}
