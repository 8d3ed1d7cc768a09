// Scope checks and normalization of λ1 programs (spec/perceus.md, "Scope" and "Normal form").
//
// Resolution decides what each name is (local variable, constructor, top-level function) and
// rejects unbound names, arity mismatches and non-exhaustive or overlapping matches with their
// locations. Normalization then produces the A-normal core the rules of fig. 4.5–4.8 and the heap
// semantics need: arguments, constructor fields and scrutinees are atoms; every binder has a name
// unique in its function (so the side conditions x ∉ Δ, Γ of [SBIND] hold); and a scrutinee that
// is still needed elsewhere is first bound to a fresh name, because [SMATCH] consumes it.
import { type Loc, UserError } from '../diag.js';
import { type RawProgram, parseProgram } from './parse.js';
import { type Branch, type ConInfo, ENTRY, type Expr, type FunDecl, type Program, type TypeDecl, type Pattern, freeVars, isAtom, mapChildren } from './syntax.js';
import { NameSupply } from './names.js';

interface Ctx {
  readonly cons: ReadonlyMap<string, ConInfo>;
  readonly types: ReadonlyMap<string, TypeDecl>;
  readonly arity: ReadonlyMap<string, number>;
  readonly file: string;
}

const at = (loc: Loc | undefined, file: string): Loc => loc ?? { file, line: 1, col: 1 };

/** Parses, resolves and normalizes a program: the front end every command uses. */
export function loadProgram(src: string, file: string): Program {
  return normalize(resolve(parseProgram(src, file)));
}

export function resolve(raw: RawProgram): Program {
  const cons = new Map<string, ConInfo>();
  const types = new Map<string, TypeDecl>();
  for (const t of raw.types) {
    if (types.has(t.name)) throw new UserError(`type '${t.name}' is declared twice`, t.loc);
    if (t.cons.length === 0) throw new UserError(`type '${t.name}' has no constructors`, t.loc, 'list at least one constructor');
    const infos = t.cons.map((k, index): ConInfo => {
      if (cons.has(k.name)) throw new UserError(`constructor '${k.name}' is declared twice`, k.loc, 'constructor names are global');
      const info = { name: k.name, type: t.name, arity: k.arity, fields: k.fields, index, loc: k.loc };
      cons.set(k.name, info);
      return info;
    });
    types.set(t.name, { name: t.name, cons: infos, loc: t.loc });
  }
  const arity = new Map<string, number>();
  for (const f of raw.funs) {
    if (arity.has(f.name)) throw new UserError(`function '${f.name}' is declared twice`, f.loc);
    if (cons.has(f.name)) throw new UserError(`'${f.name}' is both a constructor and a function`, f.loc);
    arity.set(f.name, f.params.length);
  }
  const main = raw.funs.find((f) => f.name === ENTRY);
  if (!main) throw new UserError(`the program has no '${ENTRY}' function`, { file: raw.file, line: 1, col: 1 }, 'add fun main() { … }: its body is the program');
  if (main.params.length > 0) throw new UserError(`'${ENTRY}' takes no parameters`, main.loc);
  const ctx: Ctx = { cons, types, arity, file: raw.file };
  const funs = raw.funs.map((f): FunDecl => {
    const seen = new Set<string>();
    for (const p of f.params) {
      if (seen.has(p)) throw new UserError(`parameter '${p}' appears twice in '${f.name}'`, f.loc);
      seen.add(p);
    }
    return { name: f.name, params: f.params, body: res(f.body, new Set(f.params), ctx), loc: f.loc };
  });
  return { file: raw.file, types: [...types.values()], cons, funs };
}

function res(e: Expr, env: ReadonlySet<string>, ctx: Ctx): Expr {
  const r = (x: Expr, en: ReadonlySet<string> = env) => res(x, en, ctx);
  const local = (n: string, loc: Loc | undefined, what: string) => {
    if (!env.has(n)) throw new UserError(`unbound variable '${n}' in ${what}`, at(loc, ctx.file), 'only variables in scope can be named here');
  };
  const with1 = (n: string) => new Set([...env, n]);
  switch (e.k) {
    case 'var': {
      if (env.has(e.name)) return e;
      const k = ctx.cons.get(e.name);
      if (k) {
        if (k.arity !== 0) throw new UserError(`constructor '${e.name}' takes ${k.arity} argument(s)`, at(e.loc, ctx.file), `write ${e.name}(…) with ${k.arity} argument(s)`);
        return { k: 'con', con: e.name, args: [], loc: e.loc };
      }
      const n = ctx.arity.get(e.name);
      if (n === undefined) throw new UserError(`unbound variable '${e.name}'`, at(e.loc, ctx.file), 'declare it with val, as a parameter, or as a top-level fun');
      if (n === 0) return { k: 'call', fn: e.name, args: [], loc: e.loc };
      // A top-level function used as a value is its η-expansion (spec: "Functions as values").
      const ps = Array.from({ length: n }, (_, i) => `${e.name}'a${i + 1}`);
      let body: Expr = { k: 'call', fn: e.name, args: ps.map((p) => ({ k: 'var', name: p, loc: e.loc })), loc: e.loc };
      for (let i = n - 1; i >= 0; i--) body = { k: 'lam', param: ps[i]!, body, loc: e.loc };
      return body;
    }
    case 'lit':
      return e;
    case 'call': {
      const args = e.args.map((a) => r(a));
      if (env.has(e.fn)) {
        if (args.length === 0) throw new UserError(`'${e.fn}' is a variable: apply it to an argument`, at(e.loc, ctx.file));
        return args.reduce<Expr>((f, a) => ({ k: 'app', fn: f, arg: a, loc: e.loc }), { k: 'var', name: e.fn, loc: e.loc });
      }
      const k = ctx.cons.get(e.fn);
      if (k) {
        if (k.arity !== args.length) throw new UserError(`constructor '${e.fn}' takes ${k.arity} argument(s) but is given ${args.length}`, at(e.loc, ctx.file));
        return { k: 'con', con: e.fn, args, loc: e.loc };
      }
      const n = ctx.arity.get(e.fn);
      if (n === undefined) throw new UserError(`unbound function '${e.fn}'`, at(e.loc, ctx.file), 'declare it with fun, or bind it as a variable');
      if (n !== args.length) throw new UserError(`function '${e.fn}' takes ${n} argument(s) but is given ${args.length}`, at(e.loc, ctx.file));
      return { ...e, args };
    }
    case 'con': {
      const k = ctx.cons.get(e.con);
      if (!k) throw new UserError(`unknown constructor '${e.con}'`, at(e.loc, ctx.file));
      if (k.arity !== e.args.length) throw new UserError(`constructor '${e.con}' takes ${k.arity} argument(s) but is given ${e.args.length}`, at(e.loc, ctx.file));
      if (e.reuse !== undefined) local(e.reuse, e.loc, `${e.con}@${e.reuse}`);
      return { ...e, args: e.args.map((a) => r(a)) };
    }
    case 'prim':
      return { ...e, args: e.args.map((a) => r(a)) };
    case 'app':
      return { ...e, fn: r(e.fn), arg: r(e.arg) };
    case 'lam':
      return { ...e, body: r(e.body, with1(e.param)) };
    case 'val':
      return { ...e, bound: r(e.bound), body: r(e.body, with1(e.name)) };
    case 'if':
      return { ...e, cond: r(e.cond), then: r(e.then), else: r(e.else) };
    case 'dup':
    case 'drop':
      local(e.name, e.loc, e.k);
      return { ...e, body: r(e.body) };
    case 'dropreuse':
      local(e.name, e.loc, 'drop-reuse');
      return { ...e, body: r(e.body, with1(e.token)) };
    case 'dropspec':
      throw new UserError('specialized drops are produced by optimization passes, not written', at(e.loc, ctx.file));
    case 'match':
      return resMatch(e, env, ctx);
  }
}

// implements [DEFAULT-BRANCH]
/** The pattern of a default branch: `_ -> e` covers every constructor no other branch names. */
const DEFAULT_PATTERN = '_';

function resMatch(e: Extract<Expr, { k: 'match' }>, env: ReadonlySet<string>, ctx: Ctx): Expr {
  // Nested: a sub-pattern, a field matched against a nullary constructor, or a constructor in several rows.
  const cons = e.branches.map((b) => b.con).filter((c) => c !== '_');
  const nested = e.branches.some((b) => b.pats !== undefined || b.binders.some((n) => ctx.cons.get(n)?.arity === 0)) || new Set(cons).size < cons.length;
  if (nested) return res(flatten(e, ctx), env, ctx);
  const where = at(e.loc, ctx.file);
  const named = e.branches.filter((b) => b.con !== DEFAULT_PATTERN);
  const dflt = e.branches.find((b) => b.con === DEFAULT_PATTERN);
  if (named.length === 0) throw new UserError('a match needs at least one constructor pattern', where, 'the type of the scrutinee is read from its patterns');
  if (dflt && e.branches[e.branches.length - 1] !== dflt) throw new UserError(`the default branch '${DEFAULT_PATTERN}' must come last`, at(dflt.loc, ctx.file));
  let type: TypeDecl | undefined;
  const covered = new Set<string>();
  let wild = 0;
  const branches = named.map((b): Branch => {
    const bl = at(b.loc, ctx.file);
    const k = ctx.cons.get(b.con);
    if (!k) throw new UserError(`unknown constructor '${b.con}' in pattern`, bl, 'patterns are constructors declared by a type');
    if (type && k.type !== type.name) throw new UserError(`constructor '${b.con}' belongs to type '${k.type}', but this match is on type '${type.name}'`, bl);
    type = ctx.types.get(k.type)!;
    if (covered.has(b.con)) throw new UserError(`constructor '${b.con}' is matched twice`, bl, 'patterns of a match must be mutually exclusive (§4.3.1)');
    covered.add(b.con);
    if (b.binders.length !== k.arity) throw new UserError(`pattern '${b.con}' needs ${k.arity} binder(s) but has ${b.binders.length}`, bl);
    const seen = new Set<string>();
    const binders = b.binders.map((x) => {
      if (x === '_') return `_'${++wild}`;
      if (seen.has(x)) throw new UserError(`pattern variable '${x}' appears twice`, bl, 'pattern binders must be distinct (§4.3.1)');
      seen.add(x);
      return x;
    });
    return { ...b, binders, body: res(b.body, new Set([...env, ...binders]), ctx) };
  });
  const missing = type!.cons.filter((k) => !covered.has(k.name));
  if (dflt) {
    if (missing.length === 0) throw new UserError(`the default branch '${DEFAULT_PATTERN}' covers no constructor`, at(dflt.loc, ctx.file), 'patterns of a match must be mutually exclusive (§4.3.1)');
    // One branch per constructor left over. Inside it the scrutinee variable denotes the matched
    // value, rebuilt from the branch's fields: the scrutinee stays unique (it is not needed again,
    // so it is not copied), and with reuse the rebuild takes the matched cell and keeps every field.
    const x = e.scrut.k === 'var' && env.has(e.scrut.name) ? e.scrut.name : undefined;
    for (const k of missing) {
      const binders = Array.from({ length: k.arity }, () => `_'${++wild}`);
      const value: Expr = k.arity === 0 ? { k: 'con', con: k.name, args: [], loc: dflt.loc } : { k: 'con', con: k.name, args: binders.map((y) => ({ k: 'var', name: y, loc: dflt.loc })), loc: dflt.loc };
      const body = x === undefined ? dflt.body : substVar(dflt.body, x, value);
      branches.push({ con: k.name, binders, body: res(body, new Set([...env, ...binders]), ctx), loc: dflt.loc });
    }
  } else if (missing.length > 0) {
    throw new UserError(`non-exhaustive match: no branch for ${missing.map((k) => k.name).join(', ')}`, where, `add a branch for every constructor of type '${type!.name}', or a default branch '${DEFAULT_PATTERN} -> …'`);
  }
  return { ...e, scrut: res(e.scrut, env, ctx), branches };
}

// implements [NESTED-PATTERN]
/** Names for the binders nested patterns introduce; `'` keeps them apart from source names. */
let nestedNames = 0;
const nestedName = () => `_'p${++nestedNames}`;

/** Values a row has matched so far: the variable, its constructor and the names of its fields. */
type Known = ReadonlyMap<string, { readonly con: string; readonly zs: readonly string[] }>;

/**
 * A match with nested patterns as nested flat matches, trying the rows in order (Koka's match
 * semantics): per constructor, the rows of that constructor and the default row, each testing its
 * sub-patterns left to right and falling through to the next row when one fails. In a row that
 * falls through, a value matched so far is named by its rebuild from its fields, as in a default
 * branch, so no scrutinee is needed twice.
 */
function flatten(e: Extract<Expr, { k: 'match' }>, ctx: Ctx): Expr {
  const where = at(e.loc, ctx.file);
  if (e.scrut.k !== 'var') {
    const x = nestedName();
    return { k: 'val', name: x, bound: e.scrut, body: { ...e, scrut: { k: 'var', name: x, loc: e.scrut.loc } }, loc: e.loc };
  }
  const x = e.scrut.name;
  const consOf = (con: string, loc: Loc | undefined) => {
    const k = ctx.cons.get(con);
    if (!k) throw new UserError(`unknown constructor '${con}' in pattern`, at(loc, ctx.file), 'patterns are constructors declared by a type');
    return k;
  };
  const rebuild = (con: string, ys: readonly string[]): Expr => ({ k: 'con', con, args: ys.map((y) => ({ k: 'var', name: y })) });
  /** The body with every value matched so far named by its rebuild, outermost first. */
  const named = (body: Expr, known: Known): Expr => [...known].reduce((b, [y, c]) => substVar(b, y, rebuild(c.con, c.zs)), body);
  /** The tests of one row, then its body; `fail` builds what runs when a test fails. */
  const tests = (todo: readonly (readonly [string, Pattern])[], body: Expr, fail: (known: Known) => Expr, known: Known, loc: Loc | undefined): Expr => {
    if (todo.length === 0) return named(body, known);
    const [[y, q], ...rest] = todo as [readonly [string, Pattern], ...(readonly [string, Pattern])[]];
    if (q.k === 'lit') {
      return { k: 'if', cond: { k: 'prim', op: '=', args: [{ k: 'var', name: y }, { k: 'lit', value: q.value }] }, then: tests(rest, body, fail, known, loc), else: fail(known), loc };
    }
    const nullary = q.k === 'name' && ctx.cons.get(q.name)?.arity === 0;
    if (q.k === 'name' && !nullary) return tests(rest, q.name === '_' ? body : substVar(body, q.name, { k: 'var', name: y }), fail, known, loc);
    const con = q.k === 'con' ? q.con : (q as { name: string }).name;
    const args = q.k === 'con' ? q.args : [];
    const k = consOf(con, loc);
    if (k.arity !== args.length) throw new UserError(`pattern '${con}' needs ${k.arity} binder(s) but has ${args.length}`, at(loc, ctx.file));
    const seen = known.get(y);
    if (seen) return seen.con === con ? tests([...seen.zs.map((z, i) => [z, args[i]!] as const), ...rest], body, fail, known, loc) : fail(known);
    // One branch per constructor of the type: the tested one continues the row, each other one
    // goes on to the next row knowing what y is.
    const branches = ctx.types.get(k.type)!.cons.map((other): Branch => {
      const zs = Array.from({ length: other.arity }, () => nestedName());
      const now = new Map(known).set(y, { con: other.name, zs });
      const next = other.name === con ? tests([...zs.map((z, i) => [z, args[i]!] as const), ...rest], body, fail, now, loc) : fail(now);
      return { con: other.name, binders: zs, body: next, loc };
    });
    return { k: 'match', scrut: { k: 'var', name: y }, branches, loc };
  };
  const dflt = e.branches.find((b) => b.con === '_');
  const named0 = [...new Set(e.branches.filter((b) => b.con !== '_').map((b) => b.con))];
  const branches: Branch[] = named0.map((con) => {
    const k = consOf(con, e.loc);
    const ys = Array.from({ length: k.arity }, () => nestedName());
    const rows = e.branches.filter((b) => b.con === con || b.con === '_');
    const seq = (i: number, known: Known): Expr => {
      const b = rows[i];
      if (!b) throw new UserError(`non-exhaustive match: no pattern matches every ${con}`, where, `add a branch '${con}(${ys.map(() => '_').join(', ')}) -> …' or a default branch '_ -> …'`);
      if (b.con === '_') return named(b.body, known);
      if (b.binders.length !== k.arity) throw new UserError(`pattern '${con}' needs ${k.arity} binder(s) but has ${b.binders.length}`, at(b.loc, ctx.file));
      const pats: readonly Pattern[] = b.pats ?? b.binders.map((n) => ({ k: 'name', name: n }));
      return tests(pats.map((q, j) => [ys[j]!, q] as const), b.body, (kn) => seq(i + 1, kn), known, b.loc);
    };
    return { con, binders: ys, body: seq(0, new Map([[x, { con, zs: ys }]])), loc: rows[0]!.loc };
  });
  const type = named0.length > 0 ? ctx.types.get(consOf(named0[0]!, e.loc).type) : undefined;
  const uncovered = type !== undefined && type.cons.some((k) => !named0.includes(k.name));
  return { ...e, branches: dflt && uncovered ? [...branches, dflt] : branches };
}

/** e[x := v] on a parsed expression, stopping where a binder shadows x. */
function substVar(e: Expr, x: string, v: Expr): Expr {
  const go = (y: Expr) => substVar(y, x, v);
  switch (e.k) {
    case 'var':
      return e.name === x ? v : e;
    case 'lam':
      return e.param === x ? e : { ...e, body: go(e.body) };
    case 'val':
      return { ...e, bound: go(e.bound), body: e.name === x ? e.body : go(e.body) };
    case 'match':
      return { ...e, scrut: go(e.scrut), branches: e.branches.map((b) => (b.binders.includes(x) ? b : { ...b, body: go(b.body) })) };
    default:
      return mapChildren(e, go);
  }
}

export function normalize(p: Program): Program {
  return {
    ...p,
    funs: p.funs.map((f) => {
      const namer = new NameSupply(f.params);
      const ren = new Map(f.params.map((x) => [x, x]));
      return { ...f, body: rebindScrutinees(anf(f.body, ren, namer), new Set(), namer) };
    }),
  };
}

type Ren = ReadonlyMap<string, string>;

function extend(ren: Ren, from: string, to: string): Ren {
  const m = new Map(ren);
  m.set(from, to);
  return m;
}

/** A-normal form; nested bindings are floated out of binding positions. */
function anf(e: Expr, ren: Ren, namer: NameSupply): Expr {
  const rn = (x: string) => ren.get(x) ?? x;
  switch (e.k) {
    case 'var':
      return { ...e, name: rn(e.name) };
    case 'lit':
      return e;
    case 'lam': {
      const x = namer.fresh(e.param);
      return { ...e, param: x, body: anf(e.body, extend(ren, e.param, x), namer) };
    }
    case 'app':
      return atoms([e.fn, e.arg], ren, namer, ([f, a]) => ({ ...e, fn: f!, arg: a! }));
    case 'call':
    case 'prim':
      return atoms(e.args, ren, namer, (args) => ({ ...e, args }));
    case 'con':
      return atoms(e.args, ren, namer, (args) => ({ ...e, args, ...(e.reuse !== undefined ? { reuse: rn(e.reuse) } : {}) }));
    case 'val': {
      const x = namer.fresh(e.name);
      return float(anf(e.bound, ren, namer), x, anf(e.body, extend(ren, e.name, x), namer), e.loc);
    }
    case 'match':
      return atoms([e.scrut], ren, namer, ([s]) => ({
        ...e,
        scrut: s!,
        branches: e.branches.map((b) => {
          let r = ren;
          const binders = b.binders.map((x) => {
            const y = namer.fresh(x);
            r = extend(r, x, y);
            return y;
          });
          return { ...b, binders, body: anf(b.body, r, namer) };
        }),
      }), true);
    case 'if':
      return atoms([e.cond], ren, namer, ([c]) => ({ ...e, cond: c!, then: anf(e.then, ren, namer), else: anf(e.else, ren, namer) }), true);
    case 'dup':
    case 'drop':
      return { ...e, name: rn(e.name), body: anf(e.body, ren, namer) };
    case 'dropreuse': {
      const t = namer.fresh(e.token);
      return { ...e, name: rn(e.name), token: t, body: anf(e.body, extend(ren, e.token, t), namer) };
    }
    case 'dropspec':
      return e;
  }
}

/** Binds every non-atomic argument (or, with `vars`, every non-variable) to a fresh name. */
function atoms(args: readonly Expr[], ren: Ren, namer: NameSupply, build: (atoms: Expr[]) => Expr, vars = false): Expr {
  const binds: [string, Expr][] = [];
  const out = args.map((a) => {
    const n = anf(a, ren, namer);
    if (vars ? n.k === 'var' : isAtom(n)) return n;
    const t = namer.fresh('t');
    binds.push([t, n]);
    return { k: 'var', name: t, loc: a.loc } as Expr;
  });
  let body = build(out);
  for (let i = binds.length - 1; i >= 0; i--) body = float(binds[i]![1], binds[i]![0], body, args[0]?.loc);
  return body;
}

/** `val x = (val y = a; b); c` ⇒ `val y = a; val x = b; c` (names are unique, so this is safe). */
function float(bound: Expr, x: string, body: Expr, loc: Loc | undefined): Expr {
  if (bound.k === 'val') return { ...bound, body: float(bound.body, x, body, loc) };
  if (bound.k === 'dup' || bound.k === 'drop') return { ...bound, body: float(bound.body, x, body, loc) };
  return { k: 'val', name: x, bound, body, loc };
}

/** [SMATCH] consumes its scrutinee: one still needed afterwards or in a branch is copied first. */
function rebindScrutinees(e: Expr, liveAfter: ReadonlySet<string>, namer: NameSupply): Expr {
  const go = (x: Expr, live: ReadonlySet<string> = liveAfter) => rebindScrutinees(x, live, namer);
  switch (e.k) {
    case 'var':
    case 'lit':
    case 'app':
    case 'call':
    case 'prim':
    case 'con':
    case 'dropspec':
      return e;
    case 'lam':
      return { ...e, body: go(e.body, new Set()) };
    case 'val': {
      const after = new Set([...liveAfter, ...freeVars(e.body)]);
      after.delete(e.name);
      // A copy made for a scrutinee in the bound expression floats out like any binding.
      return float(go(e.bound, after), e.name, go(e.body), e.loc);
    }
    case 'dup':
    case 'drop':
    case 'dropreuse':
      return { ...e, body: go(e.body) };
    case 'match':
    case 'if': {
      const s = e.k === 'match' ? e.scrut : e.cond;
      const inner: Expr =
        e.k === 'match' ? { ...e, branches: e.branches.map((b) => ({ ...b, body: go(b.body) })) } : { ...e, then: go(e.then), else: go(e.else) };
      if (s.k !== 'var') return inner;
      const branches = e.k === 'match' ? e.branches.map((b) => b.body) : [e.then, e.else];
      if (!liveAfter.has(s.name) && !branches.some((b) => freeVars(b).has(s.name))) return inner;
      const copy = namer.fresh(s.name);
      const v: Expr = { k: 'var', name: copy, loc: s.loc };
      return { k: 'val', name: copy, bound: s, body: inner.k === 'match' ? { ...inner, scrut: v } : { ...(inner as Extract<Expr, { k: 'if' }>), cond: v }, loc: e.loc };
    }
  }
}
