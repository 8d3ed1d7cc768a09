// Reading the files named on the command line. Only the edge of refsem reads files: the semantics
// take texts, so that they run unchanged in a browser.
import { readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import { CLI_LOC, UserError, argLoc } from '../diag.js';

/**
 * The largest source refsem reads: far above any real pipeline (Halide's largest apps are tens of
 * kilobytes; 4 MiB is some 100,000 funcs), and small enough that parsing and checking it take
 * seconds rather than minutes and gigabytes (docs/development.md, "Hostile input").
 */
export const MAX_SOURCE_BYTES = 4 * 2 ** 20;

/** Reads a source file named on the command line; `-` is standard input. */
export function readSource(path: string): { text: string; file: string } {
  const file = path === '-' ? '<stdin>' : path;
  let bytes: Buffer;
  try {
    if (path !== '-' && statSync(path).size > MAX_SOURCE_BYTES) throw tooLarge(file, statSync(path).size);
    bytes = path === '-' ? readStdin() : readFileSync(path);
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw cannotRead(path, e);
  }
  // standard input is read only to one byte past the limit: its size is then "more than" the limit
  if (bytes.length > MAX_SOURCE_BYTES) throw tooLarge(file, bytes.length, path === '-');
  return { text: bytes.toString('utf8'), file };
}

/**
 * Standard input, up to one byte past the limit. A pipe whose writer is slower than refsem may be
 * non-blocking and momentarily empty (EAGAIN): the read waits and tries again instead of failing.
 */
function readStdin(): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  const chunk = Buffer.alloc(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, chunk, 0, chunk.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
      continue;
    }
    if (n === 0) return Buffer.concat(chunks);
    chunks.push(Buffer.from(chunk.subarray(0, n)));
    total += n;
    if (total > MAX_SOURCE_BYTES) return Buffer.concat(chunks);
  }
}

function tooLarge(file: string, size: number, partly = false): UserError {
  const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;
  return new UserError(`the ${partly ? 'input is more than' : 'file is'} ${partly ? mb(MAX_SOURCE_BYTES) : mb(size)}; refsem reads sources of at most ${mb(MAX_SOURCE_BYTES)}`, { file, line: 1, col: 1 }, 'check that this is the file you meant; a pipeline this large is better split into several');
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
