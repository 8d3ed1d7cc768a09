// A rule written for a test in Halide's syntax, read and modelled, or an error naming what is not.
import { type Modelled, modelRule } from '../../src/simplify/halide/model.js';
import { readRuleFile } from '../../src/simplify/halide/parse.js';

export const modelled = (text: string): Modelled => {
  const [r] = readRuleFile(text, 't');
  const m = modelRule(r!);
  if (!m.ok) throw new Error(`not modelled: ${m.constructs.join(', ')}`);
  return m.rule;
};
