// `refsem fmt PROG`: print an algorithm in canonical form (the printer of spec/syntax.md).
import { parsePipeline } from '../../alg-semantics/parse.js';
import { printPipeline } from '../../alg-semantics/print.js';
import { parseAs } from '../../node/io.js';
import { readSource } from '../../node/source.js';
import type { Register } from './index.js';

export const register: Register = (program, io) => {
  program
    .command('fmt')
    .description('print an algorithm in canonical form')
    .argument('<prog>', 'algorithm source file (- for standard input)')
    .action((prog: string) => {
      io.out(printPipeline(parseAs('alg', readSource(prog), parsePipeline)));
    });
};
