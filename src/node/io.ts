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

/**
 * refsem's own way out. Plug-in modules run inside refsem; one that called `process.exit` would
 * end it with a code that means something else (0: success). Once guarded, `process.exit` throws
 * instead, so the call is an error of the plug-in like any other it throws, and refsem leaves
 * through the function returned here.
 */
export function guardExit(): (code: number) => never {
  const exit = process.exit.bind(process) as (code: number) => never;
  process.exit = ((code?: number | string | null) => {
    throw new Error(`process.exit(${code ?? ''}) was called by plug-in code: a plug-in must return or throw, never end refsem`);
  }) as typeof process.exit;
  return exit;
}

/**
 * Resolves once everything written to stdout and stderr has left the process. Writes to a pipe
 * are queued when the reader lags (a 5 MB C file piped into another program), and exiting drops
 * the queue: a write's callback runs after every earlier write is flushed.
 */
export function flushed(): Promise<void> {
  const drain = (s: NodeJS.WriteStream) => new Promise<void>((done) => void s.write('', () => done()));
  return Promise.all([drain(process.stdout), drain(process.stderr)]).then(() => undefined);
}

/**
 * The exit-code contract every command follows (README, "Exit codes"): 0 success; 1 a check found a
 * counterexample, or a run found the program at fault (it got stuck); 2 bad input or usage,
 * including a limit of the command line reached; 3 an internal error of refsem (its own C failing
 * to compile is one); 4 inconclusive: nothing contradicted the property but nothing established it
 * either (a watchdog or budget stopped the check, Halide or the bridge rejected the case, a
 * directive was hardly applied, a vacuous verdict under `--strict`); 130 interrupted (SIGINT),
 * after the summary of what was done.
 */
export const EXIT = { ok: 0, checkFailed: 1, badInput: 2, internal: 3, inconclusive: 4, interrupted: 130 } as const;

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
