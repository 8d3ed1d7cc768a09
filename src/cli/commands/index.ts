// Command discovery: every other module in this folder is one `refsem` subcommand and exports
// `register`. Discovery (rather than a hand-kept list) lets each command live in its own file.
import type { Command } from 'commander';
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { IO } from '../../node/io.js';

/** Adds one command to the program. `setExit` records a non-zero exit code without throwing. */
export type Register = (program: Command, io: IO, setExit: (code: number) => void) => void;

export async function loadCommands(): Promise<Register[]> {
  const here = dirname(fileURLToPath(import.meta.url));
  const files = readdirSync(here)
    .filter((f) => /\.(js|ts)$/.test(f) && !f.endsWith('.d.ts') && !/^index\.(js|ts)$/.test(f))
    .sort();
  const mods = await Promise.all(files.map((f) => import(pathToFileURL(`${here}/${f}`).href)));
  return mods.map((m: { register: Register }) => m.register);
}
