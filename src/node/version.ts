// refsem's version, as package.json states it: printed by `refsem --version` and recorded in
// reproducers and campaign summaries, so a file says which refsem wrote it.
import { readFileSync } from 'node:fs';

export const REFSEM_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
