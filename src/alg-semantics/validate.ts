// Validity of algorithms (§2.4.2, defs. 2.7–2.10). Every violation is a UserError that names the
// definition it breaks and points at the offending source. Decisions where the thesis is silent
// are documented in spec/alg.md ("Validity").
import { type Loc, UserError } from '../diag.js';
import { type Expr, freeVars, walkExpr } from '../expr/ast.js';
import { isError } from '../expr/value.js';
import { printExpr } from '../expr/print.js';
import type { Func, Pipeline, Stage } from './ast.js';

/** Which dimensions of a stage are pure (def. 2.8): those whose pure variable occurs in the stage. */
export function pureDims(f: Func, s: Stage): boolean[] {
  const used = stageVars(s);
  return f.vars.map((x) => used.has(x));
}

/** Variables occurring anywhere in a stage's coordinates, value and predicate. */
export function stageVars(s: Stage): Set<string> {
  const out = new Set<string>();
  for (const e of [...s.lhs, s.rhs, s.pred]) freeVars(e, out);
  return out;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function stageName(f: Func, j: number): string {
  return j === 0 ? `the pure stage of func '${f.name}'` : `update stage ${j} of func '${f.name}'`;
}

/** Collects every violation; the order is the order of the source. */
export function checkPipeline(p: Pipeline): UserError[] {
  const errs: UserError[] = [];
  // Each message ends with the ID of the validity rule of spec/alg.md that it enforces.
  const err: Report = (rule, msg, loc, hint) => errs.push(new UserError(`${msg} [${rule}]`, loc ?? p.loc, hint));
  const params = new Set<string>();
  for (const q of p.params) {
    if (params.has(q)) err('VALID-NAMES', `parameter '${q}' is declared twice`, p.loc, 'def. 2.10: names must be unique; rename one of them');
    params.add(q);
  }
  if (p.funcs.length === 0) err('VALID-OUTPUT', 'the pipeline defines no funcs', p.loc, `define the output func '${p.output}' inside the pipeline`);

  // Funcs visible so far (def. 2.10: defined before use), with their arity.
  const defined = new Map<string, Func>();
  for (const f of p.funcs) {
    if (defined.has(f.name)) {
      err('VALID-NAMES', `func '${f.name}' is defined twice (def. 2.10: func names are unique)`, f.loc, 'rename one of the definitions');
    }
    const vars = new Set<string>();
    for (const x of f.vars) {
      if (vars.has(x)) err('VALID-NAMES', `pure variable '${x}' of func '${f.name}' is declared twice (def. 2.10)`, f.loc, 'rename one of them');
      if (params.has(x)) err('VALID-NAMES', `pure variable '${x}' of func '${f.name}' has the name of a parameter`, f.loc, 'rename the variable: a pure variable may not shadow a parameter');
      vars.add(x);
    }
    f.stages.forEach((s, j) => checkStage(p, f, s, j, params, defined, err));
    defined.set(f.name, f);
  }
  const last = p.funcs[p.funcs.length - 1];
  if (last && last.name !== p.output) {
    const out = p.funcs.find((f) => f.name === p.output);
    if (out) err('VALID-OUTPUT', `the output func '${p.output}' must be the last func defined (def. 2.10), but '${last.name}' follows it`, out.loc, `move '${p.output}' to the end of the pipeline`);
    else err('VALID-OUTPUT', `the output func '${p.output}' named by the pipeline is not defined (def. 2.10)`, p.loc, `define func '${p.output}' last, or name an existing func after 'pipeline'`);
  }
  return errs;
}

type Report = (rule: string, msg: string, loc: Loc | undefined, hint?: string) => void;

function checkStage(p: Pipeline, f: Func, s: Stage, j: number, params: Set<string>, defined: Map<string, Func>, err: Report): void {
  const where = stageName(f, j);
  const rvars = new Set<string>();
  for (const r of s.rdom) {
    if (rvars.has(r.name)) err('VALID-NAMES', `reduction variable '${r.name}' is declared twice in ${where} (def. 2.10)`, r.loc, 'rename one of them');
    if (f.vars.includes(r.name)) err('VALID-NAMES', `reduction variable '${r.name}' has the name of a pure variable of '${f.name}'`, r.loc, 'rename the reduction variable');
    if (params.has(r.name)) err('VALID-NAMES', `reduction variable '${r.name}' has the name of a parameter`, r.loc, 'rename the reduction variable');
    rvars.add(r.name);
    for (const [b, what] of [[r.min, 'minimum'], [r.len, 'extent']] as const) checkStartup(b, `the ${what} of '${r.name}' in ${where}`, params, err);
  }
  if (s.lhs.length !== f.vars.length) {
    err('VALID-ARITY', `${where} assigns ${plural(s.lhs.length, 'coordinate')}, but '${f.name}' has ${plural(f.vars.length, 'dimension')} (def. 2.10: arity)`, s.loc, `write exactly ${plural(f.vars.length, 'coordinate')} in '(…) <-'`);
  }
  const scope = (v: string) => f.vars.includes(v) || rvars.has(v) || params.has(v);
  for (const e of [...(s.pure ? [] : s.lhs), s.rhs, s.pred]) {
    walkExpr(e, (sub) => {
      if (sub.k === 'var' && !scope(sub.name)) {
        err('VALID-SCOPE', `unknown variable '${sub.name}' in ${where}`, sub.loc,
          `the variables in scope are the pure variables of '${f.name}' (${f.vars.join(', ') || 'none'}), this stage's reduction variables and the parameters`);
      } else if (sub.k === 'access') checkAccess(p, f, sub, j, where, defined, err);
    });
  }
  checkSeparation(f, s, j, where, err);
}

function checkAccess(p: Pipeline, f: Func, a: Extract<Expr, { k: 'access' }>, j: number, where: string, defined: Map<string, Func>, err: Report): void {
  let g: Func | undefined = defined.get(a.func);
  if (a.func === f.name) {
    if (j === 0) {
      err('VALID-PURE-FIRST', `the pure stage of func '${f.name}' refers to '${f.name}' itself (def. 2.10: the first stage must be pure)`, a.loc, 'move the self-reference into an update stage');
      return;
    }
    g = f;
  }
  if (!g) {
    const later = p.funcs.some((h) => h.name === a.func);
    err('VALID-SCOPE', later ? `func '${a.func}' is used in ${where} before it is defined (def. 2.10)` : `unknown func '${a.func}' in ${where}`,
      a.loc, later ? `define '${a.func}' before '${f.name}'` : 'define the func earlier in the pipeline');
    return;
  }
  if (a.args.length !== g.vars.length) {
    err('VALID-ARITY', `'${a.func}' has ${plural(g.vars.length, 'dimension')} but is accessed with ${plural(a.args.length, 'argument')} in ${where} (def. 2.10: arity)`, a.loc);
  }
}

/** Def. 2.7: if x_i occurs in U_j, every self-access and the update coordinates have e_i ≡ x_i. */
function checkSeparation(f: Func, s: Stage, j: number, where: string, err: Report): void {
  const pure = pureDims(f, s);
  const check = (args: readonly Expr[], what: (i: number) => string, loc: Loc | undefined) => {
    f.vars.forEach((x, i) => {
      const e = args[i];
      if (!pure[i] || e === undefined || (e.k === 'var' && e.name === x)) return;
      err('VALID-SEPARATION', `${where} breaks syntactic separation (def. 2.7) in dimension ${i + 1}: pure variable '${x}' occurs in the stage, so ${what(i + 1)} must be exactly '${x}', not '${printExpr(e, 'alg')}'`,
        e.loc ?? loc, `either use '${x}' in dimension ${i + 1} everywhere in the stage, or do not mention '${x}' in the stage at all`);
    });
  };
  if (!s.pure) check(s.lhs, (i) => `coordinate ${i} of the update`, s.loc);
  if (j === 0) return; // the pure stage has no self-accesses (checked above)
  for (const e of [...s.lhs, s.rhs, s.pred]) {
    walkExpr(e, (sub) => {
      if (sub.k === 'access' && sub.func === f.name) check(sub.args, (i) => `argument ${i} of the access '${printExpr(sub, 'alg')}'`, sub.loc);
    });
  }
}

/** Def. 2.9: rdom bounds mention only parameters and no funcs; error constants are rejected too. */
function checkStartup(e: Expr, what: string, params: Set<string>, err: Report): void {
  walkExpr(e, (sub) => {
    if (sub.k === 'access') err('VALID-STARTUP', `${what} refers to func '${sub.func}', but rdom bounds must be startup expressions (def. 2.9)`, sub.loc, 'use only constants and parameters in rdom bounds');
    else if (sub.k === 'var' && !params.has(sub.name)) err('VALID-STARTUP', `${what} uses '${sub.name}', which is not a parameter; rdom bounds must be startup expressions (def. 2.9)`, sub.loc, 'use only constants and parameters in rdom bounds');
    else if (sub.k === 'const' && isError(sub.value)) err('VALID-STARTUP', `${what} is an error constant; rdom bounds must evaluate to integers`, sub.loc, 'see spec/alg.md, "Validity": error constants are not allowed in rdom bounds');
  });
}

/** Throws the first violation, if any. */
export function validatePipeline(p: Pipeline): void {
  const [first] = checkPipeline(p);
  if (first) throw first;
}
