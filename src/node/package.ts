// The installed package: its version (printed by `refsem --version`, recorded in reproducers and
// campaign summaries) and where its spec and examples are (rule links, coverage tours).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The package root: dist/node/package.js → ../../ */
const ROOT = new URL('../../', import.meta.url);

export const REFSEM_VERSION: string = (JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { version: string }).version;

/** The folder of the spec chapters, with a trailing slash. */
export const SPEC_DIR: string = fileURLToPath(new URL('spec/', ROOT));

/** The folder of the bundled examples. */
export const EXAMPLES_DIR: string = fileURLToPath(new URL('examples/', ROOT));

/** The command-line entry, for scripts refsem writes (`replay --extract`'s run.sh). */
export const REFSEM_BIN: string = fileURLToPath(new URL('bin/refsem.js', ROOT));
