// A regression corpus (`refsem fuzz --corpus DIR`): every reproducer in DIR is replayed before the
// campaign generates anything, so failures found once stay checked. A file that is not a readable
// reproducer is reported with its path and skipped; the campaign goes on.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_LOC, UserError } from '../diag.js';
import { replay } from './replay.js';

export interface CorpusResult {
  readonly dir: string;
  readonly replayed: number;
  /** reproducers that still fail, with the verdict they fail with now */
  readonly failing: readonly { readonly file: string; readonly verdict: string }[];
  /** reproducers that pass now (the bug they recorded is fixed) */
  readonly fixed: number;
  /** files that are not reproducers refsem can replay, and why */
  readonly skipped: readonly { readonly file: string; readonly why: string }[];
}

export async function runCorpus(dir: string): Promise<CorpusResult> {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a directory');
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && n !== 'summary.json').sort();
  } catch (e) {
    throw new UserError(`cannot read the corpus directory '${dir}': ${(e as Error).message}`, CLI_LOC, 'give --corpus a directory of reproducers, e.g. the --out directory of an earlier campaign');
  }
  const failing: { file: string; verdict: string }[] = [];
  const skipped: { file: string; why: string }[] = [];
  let fixed = 0;
  for (const n of names) {
    const file = join(dir, n);
    try {
      const { result } = await replay(file);
      if (result.status === 'fail') failing.push({ file, verdict: result.verdict });
      else fixed++;
    } catch (e) {
      skipped.push({ file, why: e instanceof UserError ? e.render().split('\n')[0]! : (e as Error)?.message ?? String(e) });
    }
  }
  return { dir, replayed: names.length - skipped.length, failing, fixed, skipped };
}

export function showCorpus(c: CorpusResult): string {
  const lines = [`corpus ${c.dir}: ${c.replayed} reproducer${c.replayed === 1 ? '' : 's'} replayed, ${c.failing.length} still failing, ${c.fixed} fixed${c.skipped.length ? `, ${c.skipped.length} skipped` : ''}`];
  for (const f of c.failing) lines.push(`  still fails (${f.verdict}): ${f.file}`);
  for (const s of c.skipped) lines.push(`  skipped: ${s.why}`);
  return `${lines.join('\n')}\n`;
}
