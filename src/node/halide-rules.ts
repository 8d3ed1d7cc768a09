// Halide rules named on the command line: every `src/Simplify_*.cpp` of a Halide source tree
// (`--halide-src DIR`) and plain rule files (`--rules FILE`), read at the edge and parsed by
// simplify/halide/parse.ts.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_LOC, UserError } from '../diag.js';
import type { HRule } from '../simplify/halide/ast.js';
import { type Unreadable, readHalideSource, readRuleFile } from '../simplify/halide/parse.js';
import { cannotRead, readSource } from './source.js';

export function readHalideTree(dir: string): { rules: HRule[]; unreadable: Unreadable[] } {
  let names: string[];
  try {
    names = readdirSync(join(dir, 'src')).filter((f) => /^Simplify_.*\.cpp$/.test(f)).sort();
  } catch (e) {
    throw cannotRead(join(dir, 'src'), e, 'the directory ', 'give the root of a Halide checkout, the directory that holds src/Simplify_Add.cpp');
  }
  if (names.length === 0) throw new UserError(`no src/Simplify_*.cpp in '${dir}'`, CLI_LOC, 'give the root of a Halide checkout, the directory that holds src/Simplify_Add.cpp');
  const rules: HRule[] = [];
  const unreadable: Unreadable[] = [];
  for (const n of names) {
    const { text } = readSource(join(dir, 'src', n));
    const got = readHalideSource(text, n);
    rules.push(...got.rules);
    unreadable.push(...got.unreadable);
  }
  return { rules, unreadable };
}

export function readHalideRuleFiles(paths: readonly string[]): HRule[] {
  return paths.flatMap((p) => {
    const { text, file } = readSource(p);
    return readRuleFile(text, file);
  });
}
