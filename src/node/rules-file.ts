// Rule files named on the command line (`--rules FILE`), read at the edge and parsed by the
// simplifier's own front end, so that their errors point into the file.
import { parseRules } from '../simplify/parse-rules.js';
import type { Rule } from '../simplify/rule.js';
import { readSource } from './source.js';

export function readRules(paths: readonly string[]): Rule[] {
  return paths.flatMap((p) => {
    const { text, file } = readSource(p);
    return parseRules(text, file);
  });
}
