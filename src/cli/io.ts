// The CLI's view of the outside world, so that commands run in-process in tests exactly as they
// do from a shell.
import { readFileSync } from 'node:fs';
import { type Loc, UserError } from '../diag.js';
import { CLI_LOC } from './options.js';

export interface IO {
  out(text: string): void;
  err(text: string): void;
  readonly isTTY: boolean;
}

export const processIO: IO = {
  out: (t) => void process.stdout.write(t),
  err: (t) => void process.stderr.write(t),
  get isTTY() {
    return Boolean(process.stderr.isTTY);
  },
};

/** Exit codes fixed by ARCHITECTURE.md. */
export const EXIT = { ok: 0, checkFailed: 1, badInput: 2, internal: 3 } as const;

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

/** The place of a character offset in a text. */
function locAt(text: string, offset: number, file: string): Loc {
  const before = text.slice(0, offset);
  const lastNl = before.lastIndexOf('\n');
  return { file, line: before.split('\n').length, col: offset - lastNl };
}

/**
 * Parses the text of a JSON file. A syntax error is reported at its line and column when
 * JSON.parse gives its position (at the end of the text for a truncated file), else at 1:1.
 */
export function parseJson(text: string, file: string, hint: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    const msg = String((e as Error)?.message ?? e);
    const lc = /\(line (\d+) column (\d+)\)/.exec(msg);
    const at = /at position (\d+)/.exec(msg);
    const offset = at ? Number(at[1]) : /end of JSON input/.test(msg) ? text.length : undefined;
    const loc = lc ? { file, line: Number(lc[1]), col: Number(lc[2]) } : offset !== undefined ? locAt(text, offset, file) : { file, line: 1, col: 1 };
    // The reason without V8's position and its quotation of the text.
    const why = msg.replace(/\s*\(line \d+ column \d+\)/, '').replace(/(?: in JSON)? at position \d+/, '').replace(/, (?:"|\.\.\.")[\s\S]*$/, '');
    throw new UserError(`not valid JSON: ${why}`, loc, hint);
  }
}

/** The kinds of source file, by extension, for saying which kind a command expected. */
const KINDS = { alg: 'an algorithm (.alg)', tgt: 'a target program (.tgt)', sched: 'a schedule (.sched)', lam: 'a λ1 program (.lam)' } as const;
export type SourceKind = keyof typeof KINDS;

/**
 * Runs a front end on a source; when it rejects a file whose extension names another kind (a .tgt
 * given where an algorithm is expected, …), the hint says so, since the syntax error alone
 * would not.
 */
export function parseAs<T>(kind: SourceKind, src: { text: string; file: string }, parse: (text: string, file: string) => T): T {
  try {
    return parse(src.text, src.file);
  } catch (e) {
    const ext = /\.([a-z]+)$/.exec(src.file)?.[1];
    if (!(e instanceof UserError) || ext === undefined || ext === kind || !(ext in KINDS)) throw e;
    throw new UserError(e.message, e.loc, `'${src.file}' is ${KINDS[ext as SourceKind]}, but this command expects ${KINDS[kind]}`);
  }
}
