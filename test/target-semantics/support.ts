// Helpers for the target-semantics tests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripExprLocs } from '../../src/expr/ast.js';
import type { Stmt, TgtProgram } from '../../src/target-semantics/ast.js';
import { mapStmtExprs } from '../../src/target-semantics/holes.js';
import { parseTgt } from '../../src/target-semantics/parse.js';
import { mapChildren } from '../../src/target-semantics/walk.js';
import { examplesDir } from '../support/files.js';

/** A program without source locations, for comparing trees. */
export function stripLocs(p: TgtProgram): TgtProgram {
  const st = (s: Stmt): Stmt => {
    const { loc: _l, ...rest } = mapStmtExprs(s, stripExprLocs) as Stmt & { loc?: unknown };
    return mapChildren(rest as Stmt, st);
  };
  const { loc: _l, hints, ...rest } = p;
  const h = hints?.map((x) => {
    const { loc: _hl, ...r } = x;
    return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'object' ? stripExprLocs(v) : v]));
  });
  return { ...rest, ...(h ? { hints: h as unknown as TgtProgram['hints'] } : {}), body: st(p.body) };
}

export { input, tgt } from '../support/tgt.js';

/** examples/<name>, parsed. */
export const example = (name: string): TgtProgram => {
  const file = join(examplesDir, name);
  return parseTgt(readFileSync(file, 'utf8'), file);
};
