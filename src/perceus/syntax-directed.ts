// The Perceus algorithm: the syntax-directed linear resource rules ⊢s of fig. 4.8 (§4.3.4), with
// the extensions of spec/perceus.md for literals, top-level functions, primitives and `if`.
// Every rule application checks the four invariants of §4.3.4 and can record its derivation.
import { type Branch, type Expr, type FunDecl, type Program, freeVars, wrapRc } from './syntax.js';
import { printExpr } from './print.js';

export interface Derivation {
  readonly rule: string;
  readonly delta: readonly string[];
  readonly gamma: readonly string[];
  readonly input: Expr;
  readonly output: Expr;
  readonly premises: readonly Derivation[];
}

/** A broken invariant of §4.3.4: the input was not an erased, normalized λ1 program. */
export class InvariantError extends Error {}

type Names = ReadonlySet<string>;

const minus = (a: Iterable<string>, b: Names): string[] => [...a].filter((x) => !b.has(x));
const inter = (a: Iterable<string>, b: Names): string[] => [...a].filter((x) => b.has(x));

function checkInvariants(delta: Names, gamma: Names, e: Expr, rule: string): void {
  const fv = freeVars(e);
  const bad = (what: string) => {
    throw new InvariantError(`[${rule}] invariant ${what} fails for Δ={${[...delta]}} Γ={${[...gamma]}} at ${printExpr(e).replace(/\s+/g, ' ')}`);
  };
  for (const x of gamma) {
    if (delta.has(x)) bad('(1) Δ ∩ Γ = ∅');
    if (!fv.has(x)) bad('(2) Γ ⊆ fv(e)');
  }
  for (const x of fv) if (!delta.has(x) && !gamma.has(x)) bad('(3) fv(e) ⊆ Δ, Γ');
}

class Deriver {
  constructor(private readonly record: boolean) {}

  private node(rule: string, delta: Names, gamma: Names, input: Expr, output: Expr, premises: Derivation[]): [Expr, Derivation | undefined] {
    return [output, this.record ? { rule, delta: [...delta], gamma: [...gamma], input, output, premises } : undefined];
  }

  derive(delta: Names, gamma: Names, e: Expr): [Expr, Derivation | undefined] {
    const rule = ruleOf(e, delta, gamma);
    checkInvariants(delta, gamma, e, rule);
    const prem: Derivation[] = [];
    const sub = (d: Names, g: Names, x: Expr): Expr => {
      const [o, dv] = this.derive(d, g, x);
      if (dv) prem.push(dv);
      return o;
    };
    switch (e.k) {
      case 'var':
        return this.node(rule, delta, gamma, e, rule === 'SVAR' ? e : { k: 'dup', name: e.name, body: e }, prem);
      case 'lit':
        return this.node(rule, delta, gamma, e, e, prem);
      case 'con':
      case 'call':
      case 'prim': {
        // [SCON]: Γi = (Γ − Γi+1 − … − Γn) ∩ fv(vi), vi borrowing Γi+1, …, Γn; a reuse token is
        // consumed last, like one more field.
        const parts: Expr[] = [...e.args];
        let rest = new Set(gamma);
        let later = new Set<string>();
        const out: Expr[] = new Array(parts.length);
        if (e.k === 'con' && e.reuse !== undefined) {
          if (!rest.has(e.reuse)) throw new InvariantError(`reuse token ${e.reuse} is not owned at ${e.con}@${e.reuse}`);
          rest.delete(e.reuse);
          later = new Set([e.reuse]);
        }
        for (let i = parts.length - 1; i >= 0; i--) {
          const gi = new Set(inter(rest, freeVars(parts[i]!)));
          out[i] = sub(new Set([...delta, ...later]), gi, parts[i]!);
          rest = new Set(minus(rest, gi));
          later = new Set([...later, ...gi]);
        }
        prem.reverse();
        return this.node(rule, delta, gamma, e, { ...e, args: out }, prem);
      }
      case 'app': {
        const g2 = new Set(inter(gamma, freeVars(e.arg)));
        const f = sub(new Set([...delta, ...g2]), new Set(minus(gamma, g2)), e.fn);
        const a = sub(delta, g2, e.arg);
        return this.node(rule, delta, gamma, e, { ...e, fn: f, arg: a }, prem);
      }
      case 'lam': {
        const ys = [...freeVars(e)];
        const d1 = minus(ys, gamma);
        for (const y of d1) if (!delta.has(y)) throw new InvariantError(`[${rule}] captured ${y} is neither owned nor borrowed`);
        const used = rule === 'SLAM';
        const body = sub(new Set(), new Set(used ? [...ys, e.param] : ys), e.body);
        const lam: Expr = { ...e, body: used ? body : { k: 'drop', name: e.param, body } };
        return this.node(rule, delta, gamma, e, wrapRc('dup', d1, lam), prem);
      }
      case 'val': {
        const fv2 = freeVars(e.body);
        const used = fv2.has(e.name);
        if (delta.has(e.name) || gamma.has(e.name)) throw new InvariantError(`[${rule}] ${e.name} is already in scope`);
        const g2 = new Set(inter(gamma, new Set(minus(fv2, new Set([e.name])))));
        const b = sub(new Set([...delta, ...g2]), new Set(minus(gamma, g2)), e.bound);
        const body = sub(delta, used ? new Set([...g2, e.name]) : g2, e.body);
        return this.node(rule, delta, gamma, e, { ...e, bound: b, body: used ? body : { k: 'drop', name: e.name, body } }, prem);
      }
      case 'match':
      case 'if': {
        // [SMATCH]: the scrutinee is consumed; each branch owns (Γ, bv(pi)) ∩ fv(ei) and drops the
        // rest first. `if` is the binder-free case.
        const x = (e.k === 'match' ? e.scrut : e.cond) as Extract<Expr, { k: 'var' }>;
        const rest = new Set(minus(gamma, new Set([x.name])));
        const branch = (bound: readonly string[], body: Expr): Expr => {
          const avail = [...rest, ...bound];
          const gi = new Set(inter(avail, freeVars(body)));
          return wrapRc('drop', minus(avail, gi), sub(delta, gi, body));
        };
        if (e.k === 'if') return this.node(rule, delta, gamma, e, { ...e, then: branch([], e.then), else: branch([], e.else) }, prem);
        const branches = e.branches.map((b): Branch => ({ ...b, body: branch(b.token === undefined ? b.binders : [...b.binders, b.token], b.body) }));
        return this.node(rule, delta, gamma, e, { ...e, branches }, prem);
      }
      default:
        throw new InvariantError(`Perceus takes an erased program, but found '${e.k}'`);
    }
  }
}

/** Which rule of fig. 4.8 (or its extensions) applies; the syntax-directed system is deterministic. */
function ruleOf(e: Expr, delta: Names, gamma: Names): string {
  switch (e.k) {
    case 'var':
      if (gamma.size === 1 && gamma.has(e.name)) return 'SVAR';
      if (gamma.size === 0 && delta.has(e.name)) return 'SVAR-DUP';
      throw new InvariantError(`no rule derives variable ${e.name} with Δ={${[...delta]}} Γ={${[...gamma]}}`);
    case 'lit':
      return 'SLIT';
    case 'con':
      return 'SCON';
    case 'call':
      return 'SCALL';
    case 'prim':
      return 'SPRIM';
    case 'app':
      return 'SAPP';
    case 'lam':
      return freeVars(e.body).has(e.param) ? 'SLAM' : 'SLAM-D';
    case 'val':
      return freeVars(e.body).has(e.name) ? 'SBIND' : 'SBIND-D';
    case 'match':
    case 'if': {
      const s = e.k === 'match' ? e.scrut : e.cond;
      if (s.k !== 'var' || !gamma.has(s.name)) throw new InvariantError(`the scrutinee of a ${e.k} must be an owned variable`);
      return e.k === 'match' ? 'SMATCH' : 'SIF';
    }
    default:
      throw new InvariantError(`Perceus takes an erased program, but found '${e.k}'`);
  }
}

export interface PerceusResult {
  readonly program: Program;
  readonly derivations: ReadonlyMap<string, Derivation>;
}

/** [SFUN]: a function owns its parameters; unused ones are dropped on entry. */
export function deriveFun(f: FunDecl, record = false): [FunDecl, Derivation | undefined] {
  const d = new Deriver(record);
  const used = new Set(f.params.filter((x) => freeVars(f.body).has(x)));
  const [body, dv] = d.derive(new Set(), used, f.body);
  const out = wrapRc('drop', f.params.filter((x) => !used.has(x)), body);
  return [{ ...f, body: out }, dv && { rule: 'SFUN', delta: [], gamma: [...f.params], input: f.body, output: out, premises: [dv] }];
}

/** ∅ | ∅ ⊢s e ⇝ e′ for every function of the program (fig. 4.8). */
export function perceus(p: Program, record = false): PerceusResult {
  // Without derivations the result depends on the (immutable) program alone, and the fuzz property
  // runs Perceus on the same program for most configurations: computed once per program.
  if (!record) {
    let known = PLAIN.get(p);
    if (!known) PLAIN.set(p, (known = derivePerceus(p, false)));
    return known;
  }
  return derivePerceus(p, true);
}

const PLAIN = new WeakMap<Program, PerceusResult>();

function derivePerceus(p: Program, record: boolean): PerceusResult {
  const derivations = new Map<string, Derivation>();
  const funs = p.funs.map((f) => {
    const [g, dv] = deriveFun(f, record);
    if (dv) derivations.set(f.name, dv);
    return g;
  });
  return { program: { ...p, funs }, derivations };
}

const oneLine = (e: Expr) => {
  const s = printExpr(e).replace(/\s+/g, ' ');
  return s.length > 70 ? s.slice(0, 67) + '...' : s;
};

/** The derivation tree, one judgement per line, premises indented. */
export function printDerivation(d: Derivation, ind = ''): string {
  const head = `${ind}[${d.rule}] {${d.delta.join(', ')}} | {${d.gamma.join(', ')}} ⊢s ${oneLine(d.input)} ⇝ ${oneLine(d.output)}\n`;
  return head + d.premises.map((p) => printDerivation(p, ind + '  ')).join('');
}
