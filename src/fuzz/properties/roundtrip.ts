// Print/parse round trips: every printer's output parses back to the same tree (up to source
// locations), for algorithms (spec/syntax.md) and for lowered target programs (fig. 2.7).
import { stripExprLocs, type Expr } from '../../expr/ast.js';
import type { Pipeline } from '../../alg-semantics/ast.js';
import { parsePipeline } from '../../alg-semantics/parse.js';
import { printPipeline } from '../../alg-semantics/print.js';
import { lower } from '../../lowering/lower.js';
import { mapStmtExprs } from '../../target-semantics/holes.js';
import type { Stmt, TgtProgram } from '../../target-semantics/ast.js';
import { parseTgt } from '../../target-semantics/parse.js';
import { printTgt } from '../../target-semantics/print.js';
import { PASS, type CheckResult, type Property } from '../property.js';
import { observePipeline } from '../gen/observe.js';
import { type AlgCase, type AlgGen, algCase, algShape, arbAlgGen, decodeAlg, encodeAlg } from './alg-case.js';

/** JSON of a tree without source locations, for structural comparison. */
export function canonical(x: unknown): string {
  return JSON.stringify(x, (k, v: unknown) => (k === 'loc' ? undefined : typeof v === 'bigint' ? `${v}n` : v));
}

const stripPipeline = (p: Pipeline): unknown => canonical(p);

const stripStmt = (s: Stmt): Stmt => mapStmtExprs(s, (e: Expr) => stripExprLocs(e));
const stripTgt = (t: TgtProgram): string => canonical({ ...t, body: stripStmt(t.body) });

function same(what: string, a: string, b: string, text: string): CheckResult {
  return a === b ? PASS : { status: 'fail', verdict: `roundtrip-${what}`, expected: text, actual: `parsing the printed ${what} gives a different tree` };
}

export const roundtrip: Property<AlgGen, AlgCase> = {
  name: 'roundtrip',
  summary: 'print/parse round trips: algorithms (printPipeline/parsePipeline) and target programs (printTgt/parseTgt)',
  arbitrary: arbAlgGen,
  concretize: algCase,
  check(c) {
    const text = printPipeline(c.pipeline);
    const alg = same('algorithm', stripPipeline(parsePipeline(text, '<roundtrip>')) as string, stripPipeline(c.pipeline) as string, text);
    if (alg.status !== 'pass') return alg;
    const t = lower(c.pipeline);
    const ttext = printTgt(t);
    return same('target', stripTgt(parseTgt(ttext, '<roundtrip>')), stripTgt(t), ttext);
  },
  encode: encodeAlg,
  decode: decodeAlg,
  shape: algShape,
  observe: (c, stats) => observePipeline(c.pipeline, c.input, stats),
};
