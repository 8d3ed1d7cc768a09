// implements [C-CSE]: common subexpressions of the emitted C (spec/codegen.md). Bounds inference
// builds a stage's extents from its consumers' (fig. 2.10), so a chain of per-tile stages carries
// the same subterms many times over; emitted as a tree, a six-stage chain is hundreds of thousands
// of lines. An expression that reads no memory has the same value wherever its variables have, so
// the temporary of its first evaluation serves every later occurrence in a scope where that
// temporary is still visible. No name is bound twice on one path (checkTgt), so a variable it
// names still has the value it had then.
import type { Expr } from '../expr/ast.js';

interface Shape {
  /** the structure's number: equal numbers, equal expressions */
  readonly id: number;
  /** whether it reads no memory and holds no hole (only those are shared) */
  readonly pure: boolean;
}

interface Known<V> {
  readonly value: V;
  /** the block depth of its declaration: it is out of scope once the block closes */
  readonly depth: number;
}

export class SharedValues<V = { readonly v: string; readonly tag?: string }> {
  private readonly shapes = new WeakMap<Expr, Shape>();
  private readonly ids = new Map<string, number>();
  private readonly known = new Map<number, Known<V>>();

  /** Numbers an expression by structure, once per node, so a shared subterm costs nothing twice. */
  private shape(e: Expr): Shape {
    const seen = this.shapes.get(e);
    if (seen !== undefined) return seen;
    let key: string;
    let pure = true;
    switch (e.k) {
      case 'const':
        key = `c${typeof e.value === 'object' ? JSON.stringify(e.value) : String(e.value)}`;
        break;
      case 'var':
        key = `v${e.name}`;
        break;
      case 'op': {
        const args = e.args.map((a) => this.shape(a));
        key = `o${e.op}(${args.map((a) => a.id).join(',')})`;
        pure = args.every((a) => a.pure);
        break;
      }
      default:
        key = '';
        pure = false;
    }
    let id = this.ids.get(key);
    if (id === undefined) this.ids.set(key, (id = this.ids.size));
    const s = { id, pure };
    this.shapes.set(e, s);
    return s;
  }

  /** The value of an equal expression evaluated in a visible scope, if any. */
  get(e: Expr): V | undefined {
    const s = this.shape(e);
    return s.pure ? this.known.get(s.id)?.value : undefined;
  }

  /** Records the value of `e` declared at block depth `depth` (nothing for expressions that read memory). */
  set(e: Expr, value: V, depth: number): void {
    const s = this.shape(e);
    if (s.pure) this.known.set(s.id, { value, depth });
  }

  /** A block closed, leaving depth `depth`: its declarations are out of scope. */
  leave(depth: number): void {
    for (const [id, k] of this.known) if (k.depth > depth) this.known.delete(id);
  }
}
