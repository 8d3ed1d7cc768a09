// Loading the user's plug-in modules (`--engine MODULE`, `--directive MODULE`,
// `check-directive MODULE`). Whatever is wrong with such a module is the user's to fix, so it is a
// UserError (exit 2) at the module, with the line and column of a syntax error or of the code
// that threw, a one-line reason and what to do; never the module loader's own text and stack.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI_LOC, type Loc, UserError } from '../diag.js';
import { pluginTimeLimitMs } from './plugin-limits.js';

/** The file kinds Node loads as JavaScript modules. */
const MODULE_FILE = /\.(mjs|js|cjs)$/;

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where in the module at `path` an error arose: the first stack frame inside it (an exception
 * thrown while the module runs), else its first line.
 */
export function locInModule(e: unknown, path: string): Loc {
  const abs = resolve(path);
  const stack = String((e as Error)?.stack ?? '');
  const m = new RegExp(`(?:${escape(pathToFileURL(abs).href)}|${escape(abs)}):(\\d+):(\\d+)`).exec(stack);
  return m ? { file: path, line: Number(m[1]), col: Number(m[2]) } : { file: path, line: 1, col: 1 };
}

/**
 * The syntax error of a module, as Node's own syntax check reports it. A failed `import()` does
 * not say where a syntax error is (and under other loaders says it differently), so the check
 * runs on the failure path only.
 */
function syntaxError(abs: string, path: string): { loc: Loc; reason: string } | undefined {
  const r = spawnSync(process.execPath, ['--check', abs], { encoding: 'utf8', timeout: 20_000 });
  if (r.status === 0 || typeof r.stderr !== 'string') return undefined;
  // `ABS:LINE`, the source line, a caret under the column, a blank line, `SyntaxError: reason`.
  const lines = r.stderr.split('\n');
  const head = lines.findIndex((l) => l.startsWith(`${abs}:`));
  const line = head >= 0 ? Number(/:(\d+)$/.exec(lines[head]!)?.[1]) : NaN;
  const caret = head >= 0 ? (lines[head + 2] ?? '').indexOf('^') : -1;
  const reason = /^\w*Error: (.*)$/m.exec(r.stderr)?.[1];
  if (reason === undefined) return undefined;
  return { loc: { file: path, line: Number.isInteger(line) ? line : 1, col: caret >= 0 ? caret + 1 : 1 }, reason: `syntax error: ${reason}` };
}

/**
 * Imports the ES module at `path`. `what` names it in messages ('directive', 'bounds engine'),
 * `hint` says what the module must be.
 */
export async function importUserModule(path: string, what: string, hint: string): Promise<Record<string, unknown>> {
  const abs = resolve(path);
  const fail = (reason: string, loc: Loc = { file: path, line: 1, col: 1 }, more = hint): never => {
    throw new UserError(`cannot load ${what} module '${path}': ${reason}`, loc, more);
  };
  let isFile: boolean;
  try {
    isFile = statSync(abs).isFile();
  } catch {
    // The argument names no file: reported at the command line, as every missing file.
    return fail('no such file', CLI_LOC, `check the path; ${hint}`);
  }
  if (!isFile) fail('is a directory', CLI_LOC, `check the path; ${hint}`);
  if (!MODULE_FILE.test(abs)) fail('not a JavaScript module (expected a .mjs or .js file)');
  // A top-level await that never settles would leave nothing for the event loop to wait on, and
  // Node would end refsem with its own exit code 13: the timer keeps refsem alive to say so.
  let timer: NodeJS.Timeout | undefined;
  const limitMs = pluginTimeLimitMs(process.env);
  const stalled = new Promise<'stalled'>((done) => {
    timer = setTimeout(() => done('stalled'), limitMs);
  });
  let loaded: Record<string, unknown> | 'stalled';
  try {
    loaded = await Promise.race([import(pathToFileURL(abs).href) as Promise<Record<string, unknown>>, stalled]);
  } catch (e) {
    const syntax = syntaxError(abs, path);
    if (syntax) return fail(syntax.reason, syntax.loc, `fix the syntax error; ${hint}`);
    // The module parsed but failed to link (a missing import) or threw while it ran.
    const reason = String((e as Error)?.message ?? e).split('\n')[0]!;
    return fail(reason, locInModule(e, path));
  } finally {
    clearTimeout(timer);
  }
  if (loaded === 'stalled') return fail(`the module did not finish loading within ${limitMs / 1000} s (a top-level await that never settles?)`);
  return loaded;
}
