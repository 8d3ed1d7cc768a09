// The helper object handed to user directive modules (`export default (api) => …`) and available
// to every directive as `ctx.api`: the same helpers the built-ins use, so a user directive needs no
// import from the project (spec/schedule.md, "Writing a directive").
import { cst, freeVars, op, substExpr, vr } from '../expr/ast.js';
import { parseExprText } from '../expr/parse.js';
import { printExpr } from '../expr/print.js';
import { printStmt } from '../target-semantics/print.js';
import { loopsOf, replaceInProgram } from '../target-semantics/walk.js';
import {
  constValue, dimsOf, firstValid, freshLoopVar, funcsOf, inventName, isPure, nestedLoop, pick, pureVars,
  requireStartup, resolveLoop, shuffled, stageCount,
} from './loops.js';
import { type DirectiveApi, Rejection, defineDirective } from './plugin.js';

export const directiveApi: DirectiveApi = Object.freeze({
  defineDirective,
  Rejection,
  // expressions
  cst, vr, op, freeVars, substExpr, printExpr, parseExpr: (text: string) => parseExprText(text, 'tgt'),
  printStmt,
  // programs
  // `replaceAt` is the name user modules know (spec/schedule.md, examples/directives/): it takes
  // the program, as directives do.
  funcsOf, dimsOf, stageCount, loopsOf, resolveLoop, nestedLoop, isPure, pureVars, replaceAt: replaceInProgram, freshLoopVar, inventName,
  requireStartup, constValue,
  // randomness for generate
  pick, shuffled, firstValid,
});
