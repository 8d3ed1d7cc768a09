// `refsem check PROG`: parse and check validity (defs. 2.7–2.10), reporting every violation.
import { parsePipeline } from '../../alg-semantics/parse.js';
import { checkPipeline } from '../../alg-semantics/validate.js';
import { EXIT, parseAs } from '../../node/io.js';
import { readSource } from '../../node/source.js';
import type { Register } from './index.js';

export const register: Register = (program, io, setExit) => {
  program
    .command('check')
    .description('parse an algorithm and check that it is valid (defs. 2.7–2.10)')
    .argument('<prog>', 'algorithm source file (- for standard input)')
    .action((prog: string) => {
      const src = readSource(prog);
      const file = src.file;
      const p = parseAs('alg', src, parsePipeline);
      const errs = checkPipeline(p);
      if (errs.length === 0) {
        io.out(`${file}: valid pipeline '${p.output}' (${p.funcs.length} funcs)\n`);
        return;
      }
      for (const e of errs) io.err(e.render() + '\n');
      setExit(EXIT.badInput);
    });
};
