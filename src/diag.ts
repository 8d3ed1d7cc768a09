// Diagnostics shared by every front end: a source location and a user-facing error that the CLI
// renders as `file:line:col: message` with exit code 2 (ARCHITECTURE.md, "Invariants").

export interface Loc {
  readonly file: string;
  readonly line: number; // 1-based
  readonly col: number; // 1-based
}

export function showLoc(loc: Loc | undefined): string {
  return loc ? `${loc.file}:${loc.line}:${loc.col}` : '<unknown>';
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
