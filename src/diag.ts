// Diagnostics shared by every front end: a source location and a user-facing error that the CLI
// renders as `file:line:col: message` with exit code 2 (docs/architecture.md, "Contracts").

export interface Loc {
  readonly file: string;
  readonly line: number; // 1-based
  readonly col: number; // 1-based
  /** on the command line, which has no lines: the option and value at fault */
  readonly arg?: string;
}

/** `file:line:col`; a command-line argument is named by its option and value instead. */
export function showLoc(loc: Loc | undefined): string {
  if (!loc) return '<unknown>';
  if (loc.file === CLI_LOC.file) return loc.arg === undefined ? loc.file : `${loc.file} ${loc.arg}`;
  return `${loc.file}:${loc.line}:${loc.col}`;
}

/** An error caused by the user's input (syntax, validity, schedule, CLI arguments). Exit code 2. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly loc?: Loc,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'UserError';
  }

  render(): string {
    const where = this.loc ? `${showLoc(this.loc)}: ` : '';
    return `${where}error: ${this.message}${this.hint ? `\n  hint: ${this.hint}` : ''}`;
  }
}

/**
 * A fault of refsem itself that it detected and can describe (its own C does not compile with a
 * toolchain that compiles other C): exit 3, the message without a JavaScript stack.
 */
export class InternalFault extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InternalFault';
  }
}

/**
 * An exception as a reproducer or a report shows it: its name and message, and the first stack
 * frame outside refsem and Node (a plug-in's line), never refsem's own `dist/` paths, which differ
 * per machine and say nothing to the plug-in's author.
 */
export function describeThrown(e: unknown): string {
  if (e instanceof UserError) return e.render();
  if (!(e instanceof Error)) return String(e);
  const frame = (e.stack ?? '').split('\n').slice(1).map((l) => l.trim()).find((l) => l.startsWith('at ') && !/node:|\/(?:dist|src|node_modules)\//.test(l));
  return `${e.name}: ${e.message}${frame ? ` (${frame})` : ''}`;
}

/** Result type for front ends that must never throw on bad input. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: UserError };

export function attempt<T>(f: () => T): Result<T> {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    if (e instanceof UserError) return { ok: false, error: e };
    throw e;
  }
}

/** Where errors in command-line arguments are reported: there is no file to point into. */
export const CLI_LOC: Loc = { file: '<command line>', line: 1, col: 1 };

/** The place of a bad option value: shown as `<command line> --window 0+8`. */
export function argLoc(option: string, value?: string): Loc {
  return { ...CLI_LOC, arg: value === undefined ? option : `${option} ${/^[\w.+,:=/-]+$/.test(value) ? value : JSON.stringify(value)}` };
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
