// The command line's view of the outside world, so that commands run in-process in tests exactly as they
// do from a shell.
import { UserError } from '../diag.js';

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

/** Exit codes (docs/architecture.md, "Contracts"). */
export const EXIT = { ok: 0, checkFailed: 1, badInput: 2, internal: 3 } as const;

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
