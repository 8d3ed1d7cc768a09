// The `refsem` command: dispatch, error rendering and exit codes (docs/architecture.md, "Contracts").
import { Command, CommanderError } from 'commander';
import { CLI_LOC, InternalFault, UserError } from '../diag.js';
import { loadCommands } from './commands/index.js';
import { EXIT, type IO } from '../node/io.js';
import { REFSEM_VERSION } from '../node/package.js';

/** Thrown by a command whose check found a counterexample: exit code 1, message already printed. */
export class CheckFailed extends Error {}

/**
 * The hint under Commander's complaint. An argument that begins with '-' but is no option (a
 * negative number, an expression such as '-3 + 1') is read as one unless `--` comes before it.
 */
function commandLineHint(text: string): string {
  const arg = /unknown option '(-[^']*)'/.exec(text)?.[1];
  if (arg !== undefined && !/^--?[A-Za-z][\w-]*(=.*)?$/.test(arg)) return `  hint: an argument that begins with '-' is read as an option; put -- before it: … -- '${arg}'`;
  return '  hint: run the command with --help for its usage';
}

export async function main(argv: readonly string[], io: IO): Promise<number> {
  let code: number = EXIT.ok;
  const program = new Command('refsem')
    .description('executable reference semantics and differential tester for Halide-style scheduling and Perceus')
    .version(REFSEM_VERSION, '-V, --version', 'print the version of refsem')
    .exitOverride()
    // Commander's own complaints (an unknown option, a missing argument) read like every other
    // command-line error: `<command line>: error: …` with a hint.
    .configureOutput({ writeOut: io.out, writeErr: io.err, outputError: (text, write) => write(`${CLI_LOC.file}: ${text.replace(/^(error: )?/, 'error: ')}${commandLineHint(text)}\n`) });
  try {
    // Inside the try: a command module that fails to load is an internal error (exit 3), not a crash.
    for (const register of await loadCommands()) {
      register(program, io, (c) => {
        code = c;
      });
    }
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.exitCode === 0) return EXIT.ok;
      return EXIT.badInput;
    }
    if (e instanceof UserError) {
      // An error with no place in a file is about the invocation: it is shown at the command line.
      io.err((e.loc ? e : new UserError(e.message, CLI_LOC, e.hint)).render() + '\n');
      return EXIT.badInput;
    }
    if (e instanceof CheckFailed) return EXIT.checkFailed;
    if (e instanceof InternalFault) {
      io.err(`internal error: ${e.message}\n`);
      return EXIT.internal;
    }
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      // The front ends and evaluators recurse over the syntax tree. Parsed sources are held to
      // spec/syntax.md [SYNTAX-DEPTH] with a located error; this is the last resort for a tree
      // that came some other way and is too deep for the stack: a property of the input, so bad
      // input (exit 2), not an internal error.
      io.err(new UserError('the input is nested too deeply to process (the call stack overflowed)', CLI_LOC, 'split very deep or very long expressions into several funcs or let-bindings').render() + '\n');
      return EXIT.badInput;
    }
    io.err(`internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    return EXIT.internal;
  }
}
