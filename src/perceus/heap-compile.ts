// Compiling an annotated λ1 program for the heap machine: names become environment slots, and each
// node records the static facts the per-step checks compare the heap with (what it consumes, its
// free variables before and after erasure).
import { INT_OPS } from '../expr/ops.js';
import type { OpName } from '../expr/ast.js';
import { Cell, Code, type Compiled, type FunCode, Op, STATIC } from './heap-code.js';
import { ENTRY, type Expr, type Program, erase, freeVars } from './syntax.js';

class Scope {
  readonly slots = new Map<string, number>();
  n = 0;
  add(x: string): number {
    const s = this.n++;
    this.slots.set(x, s);
    return s;
  }
  get(x: string): number {
    const s = this.slots.get(x);
    if (s === undefined) throw new Error(`internal: unbound ${x} at compile time`);
    return s;
  }
}

function bagAdd(b: Map<number, number>, s: number, d: number): void {
  const v = (b.get(s) ?? 0) + d;
  if (v === 0) b.delete(s);
  else b.set(s, v);
}
function bagUnion(a: Map<number, number>, b: Map<number, number>, drop: readonly number[] = []): Map<number, number> {
  const out = new Map(a);
  for (const [s, v] of b) if (!drop.includes(s)) bagAdd(out, s, v);
  return out;
}
const setOf = (...xs: Iterable<number>[]) => {
  const s = new Set<number>();
  for (const x of xs) for (const v of x) s.add(v);
  return s;
};
const setMinus = (a: Set<number>, drop: readonly number[]) => new Set([...a].filter((x) => !drop.includes(x)));

/**
 * Compiles an annotated program. `formal` selects the formal [MATCH-R] (fields duplicated and the
 * scrutinee dropped at run time) for matches not already in elaborated form.
 */
export function compile(p: Program, formal: boolean): Compiled {
  const nullary = new Map<string, Cell>();
  for (const k of p.cons.values()) if (k.arity === 0) nullary.set(k.name, new Cell(STATIC, k, [], null, 0));
  const funs = new Map<string, FunCode>();
  for (const f of p.funs) funs.set(f.name, { name: f.name, nslots: 0, body: null, nparams: f.params.length, ...(f.loc ? { loc: f.loc } : {}) });

  const atom = (c: Code, e: Expr, sc: Scope) => {
    if (e.k === 'var') {
      c.aslots.push(sc.get(e.name));
      c.consts.push(0);
      bagAdd(c.own, sc.get(e.name), 1);
      c.fv.add(sc.get(e.name));
      c.fvErased.add(sc.get(e.name));
    } else if (e.k === 'lit') {
      c.aslots.push(-1);
      c.consts.push(e.value);
    } else if (e.k === 'con' && e.args.length === 0) {
      c.aslots.push(-1);
      c.consts.push(nullary.get(e.con)!);
    } else throw new Error(`internal: not an atom: ${e.k}`);
  };

  const prefix = (kind: typeof Op.DUP | typeof Op.DROP, slot: number, src: Expr, next: Code, name: string): Code => {
    const c = new Code(kind, src);
    c.slot = slot;
    c.name = name;
    c.next = next;
    c.own = new Map(next.own);
    bagAdd(c.own, slot, kind === Op.DUP ? -1 : 1);
    c.fv = setOf(next.fv, [slot]);
    c.fvErased = next.fvErased;
    return c;
  };

  /**
   * [SVAR-DUP] can leave `dup x; x` in an argument position; the machine runs those dups just
   * before the node (nothing is evaluated in between, arguments being atoms).
   */
  const hoisted = (args: readonly Expr[]): [string[], Expr[]] => {
    const names: string[] = [];
    const out = args.map((a) => {
      let x = a;
      while (x.k === 'dup') {
        names.push(x.name);
        x = x.body;
      }
      return x;
    });
    return [names, out];
  };
  const withDups = (names: string[], src: Expr, c: Code, sc: Scope): Code => {
    let out = c;
    for (let i = names.length - 1; i >= 0; i--) out = prefix(Op.DUP, sc.get(names[i]!), src, out, names[i]!);
    return out;
  };

  const go = (e: Expr, sc: Scope): Code => {
    if ((e.k === 'con' || e.k === 'call' || e.k === 'prim') && e.args.some((a) => a.k === 'dup')) {
      const [names, args] = hoisted(e.args);
      return withDups(names, e, go({ ...e, args } as Expr, sc), sc);
    }
    if (e.k === 'app' && (e.fn.k === 'dup' || e.arg.k === 'dup')) {
      const [names, [fn, arg]] = hoisted([e.fn, e.arg]);
      return withDups(names, e, go({ ...e, fn: fn!, arg: arg! }, sc), sc);
    }
    switch (e.k) {
      case 'var':
      case 'lit': {
        const c = new Code(Op.ATOM, e);
        atom(c, e, sc);
        c.simple = true;
        return c;
      }
      case 'con': {
        if (e.args.length === 0 && e.reuse === undefined) {
          const c = new Code(Op.ATOM, e);
          atom(c, e, sc);
          c.simple = true;
          return c;
        }
        const c = new Code(Op.CON, e);
        c.con = p.cons.get(e.con)!;
        for (const a of e.args) atom(c, a, sc);
        if (e.reuse !== undefined) {
          c.token = sc.get(e.reuse);
          bagAdd(c.own, c.token, 1);
          c.fv.add(c.token);
          c.keep = e.keep ? [...e.keep] : null;
        }
        c.simple = true;
        return c;
      }
      case 'prim': {
        const c = new Code(Op.PRIM, e);
        c.prim = INT_OPS[e.op as OpName];
        for (const a of e.args) atom(c, a, sc);
        c.simple = true;
        return c;
      }
      case 'call': {
        const c = new Code(Op.CALL, e);
        c.fun = funs.get(e.fn)!;
        for (const a of e.args) atom(c, a, sc);
        return c;
      }
      case 'app': {
        const c = new Code(Op.APP, e);
        atom(c, e.fn, sc);
        atom(c, e.arg, sc);
        return c;
      }
      case 'lam': {
        const c = new Code(Op.LAM, e);
        // λ^ys captures every name its body refers to: those of the erased body, in their order,
        // then any other the annotations name (none in a correct translation; a token, say, in a
        // faulty one, which the checks then see instead of an unbound slot).
        const erasedCaps = freeVars(erase(e));
        const caps = [...erasedCaps, ...[...freeVars(e)].filter((y) => !erasedCaps.has(y))];
        const inner = new Scope();
        const self = inner.add(`λself`);
        const capIn = caps.map((y) => inner.add(y));
        const param = inner.add(e.param);
        // [APP-R] runs `dup ys; drop f` before the body: compiled as its prefix.
        let body = go(e.body, inner);
        body = prefix(Op.DROP, self, e, body, 'f');
        for (let i = capIn.length - 1; i >= 0; i--) body = prefix(Op.DUP, capIn[i]!, e, body, caps[i]!);
        c.lam = { src: e, nslots: 0, body, capSlots: caps.map((y) => sc.get(y)), paramSlot: param };
        c.lam.nslots = inner.n;
        for (const s of c.lam.capSlots) {
          bagAdd(c.own, s, 1);
          c.fv.add(s);
          c.fvErased.add(s);
        }
        c.simple = true;
        return c;
      }
      case 'val': {
        const c = new Code(Op.VAL, e);
        c.bound = go(e.bound, sc);
        c.slot = sc.add(e.name);
        c.next = go(e.body, sc);
        c.own = bagUnion(c.bound.own, c.next.own, [c.slot]);
        c.fv = setOf(c.bound.fv, setMinus(c.next.fv, [c.slot]));
        c.fvErased = setOf(c.bound.fvErased, setMinus(c.next.fvErased, [c.slot]));
        return c;
      }
      case 'match': {
        const c = new Code(Op.MATCH, e);
        c.slot = sc.get((e.scrut as { name: string }).name);
        const first = p.cons.get(e.branches[0]!.con)!;
        c.type = first.type;
        c.formal = formal && !e.elab;
        const ncons = p.types.find((t) => t.name === first.type)!.cons.length;
        c.kids = new Array(ncons);
        c.binders = new Array(ncons);
        c.fv.add(c.slot);
        c.fvErased.add(c.slot);
        e.branches.forEach((b, i) => {
          const k = p.cons.get(b.con)!;
          const bs = b.binders.map((x) => sc.add(x));
          const tok = b.token === undefined ? [] : [sc.add(b.token)];
          let body = go(b.body, sc);
          if (c.formal) {
            // [MATCH-R]: dup ys; drop x; ei[xs := ys]
            body = prefix(Op.DROP, c.slot, e, body, (e.scrut as { name: string }).name);
            for (let j = bs.length - 1; j >= 0; j--) body = prefix(Op.DUP, bs[j]!, e, body, b.binders[j]!);
          }
          c.kids[k.index] = body;
          c.binders[k.index] = bs;
          const drop = [...bs, ...tok];
          if (i === 0) c.own = bagUnion(new Map(), body.own, drop);
          for (const s of setMinus(body.fv, drop)) c.fv.add(s);
          for (const s of setMinus(body.fvErased, drop)) c.fvErased.add(s);
        });
        return c;
      }
      case 'if': {
        const c = new Code(Op.IF, e);
        c.slot = sc.get((e.cond as { name: string }).name);
        c.kids = [go(e.then, sc), go(e.else, sc)];
        c.own = new Map(c.kids[0]!.own);
        bagAdd(c.own, c.slot, 1);
        c.fv = setOf([c.slot], c.kids[0]!.fv, c.kids[1]!.fv);
        c.fvErased = setOf([c.slot], c.kids[0]!.fvErased, c.kids[1]!.fvErased);
        return c;
      }
      case 'dup':
      case 'drop':
        return prefix(e.k === 'dup' ? Op.DUP : Op.DROP, sc.get(e.name), e, go(e.body, sc), e.name);
      case 'dropreuse': {
        const c = new Code(Op.DROPREUSE, e);
        c.slot = sc.get(e.name);
        c.token = sc.add(e.token);
        c.next = go(e.body, sc);
        c.own = bagUnion(new Map([[c.slot, 1]]), c.next.own, [c.token]);
        c.fv = setOf([c.slot], setMinus(c.next.fv, [c.token]));
        c.fvErased = setMinus(c.next.fvErased, [c.token]);
        return c;
      }
      case 'dropspec': {
        const c = new Code(Op.DROPSPEC, e);
        c.slot = sc.get(e.name);
        const enc = (o: { op: string; name: string }) => sc.get(o.name) * 2 + (o.op === 'drop' ? 1 : 0);
        c.unique = e.unique.map(enc);
        c.shared = e.shared.map(enc);
        if (e.token !== undefined) c.token = sc.add(e.token);
        c.next = go(e.body, sc);
        c.own = bagUnion(new Map([[c.slot, 1]]), c.next.own, c.token >= 0 ? [c.token] : []);
        for (const x of e.pushed) bagAdd(c.own, sc.get(x), -1);
        c.fv = setOf([c.slot], [...e.unique, ...e.shared].map((o) => sc.get(o.name)), setMinus(c.next.fv, c.token >= 0 ? [c.token] : []));
        c.fvErased = setMinus(c.next.fvErased, c.token >= 0 ? [c.token] : []);
        return c;
      }
    }
  };

  for (const f of p.funs) {
    const sc = new Scope();
    for (const x of f.params) sc.add(x);
    const fc = funs.get(f.name)!;
    fc.body = go(f.body, sc);
    fc.nslots = sc.n;
  }
  return { main: funs.get(ENTRY)!, funs, nullary };
}
