// The statement walker: paths, visiting order, finding, rewriting and removing by path, and the
// loops of a program, on a hand-written program and on generated ones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbTgtProgram } from '../../src/fuzz/arbitraries/tgt.js';
import type { Stmt } from '../../src/target-semantics/ast.js';
import { printHead } from '../../src/target-semantics/print.js';
import {
  type StmtPath, children, findStmt, isInside, loopsOf, mapChildren, removeAt, replaceAt, replaceInProgram, someStmt,
  stmtAt, visitStmts,
} from '../../src/target-semantics/walk.js';
import { tgt } from './support.js';

const t = tgt(`pipeline f(n; x in (x.min, x.len)): {
  allocate f(x in (x.min, x.len));
  label f: label f.s0: for f.s0.x in (x.min, x.len) do
    if n > 0 then let y = 1 in f[f.s0.x] <- y else f[f.s0.x] <- 0;
  for i in (0, n) do nop
}`);

/** Every statement's path and head, in visiting order. */
function visited(s: Stmt): [StmtPath, string, readonly string[]][] {
  const out: [StmtPath, string, readonly string[]][] = [];
  visitStmts(s, (x, path, labels) => out.push([path, printHead(x), labels]));
  return out;
}

describe('children and mapChildren', () => {
  it('list the sub-statements with their steps, and rebuild only those', () => {
    expect(children(t.body).map(([k]) => k)).toEqual([0, 1, 2]);
    const ifStmt = stmtAt(t.body, [1, 'body', 'body', 'body'])!;
    expect(children(ifStmt).map(([k, c]) => [k, c.k])).toEqual([['then', 'let'], ['else', 'store']]);
    expect(children({ k: 'nop' })).toEqual([]);
    const steps: unknown[] = [];
    const swapped = mapChildren(ifStmt, (c, k) => (steps.push(k), k === 'then' ? { k: 'nop' } : c));
    expect(steps).toEqual(['then', 'else']);
    expect(swapped).toMatchObject({ k: 'if', then: { k: 'nop' } });
    expect((swapped as Extract<Stmt, { k: 'if' }>).else).toBe((ifStmt as Extract<Stmt, { k: 'if' }>).else);
    const leaf: Stmt = { k: 'assert', cond: { k: 'var', name: 'n' } };
    expect(mapChildren(leaf, () => ({ k: 'nop' }))).toBe(leaf);
  });
});

describe('visitStmts', () => {
  it('visits in program order with paths and enclosing labels', () => {
    expect(visited(t.body)).toEqual([
      [[], '{ … }', []],
      [[0], 'allocate f(x in (x.min, x.len))', []],
      [[1], 'label f: …', []],
      [[1, 'body'], 'label f.s0: …', ['f']],
      [[1, 'body', 'body'], 'for f.s0.x in (x.min, x.len) do …', ['f', 'f.s0']],
      [[1, 'body', 'body', 'body'], 'if n > 0 then …', ['f', 'f.s0']],
      [[1, 'body', 'body', 'body', 'then'], 'let y = 1 in …', ['f', 'f.s0']],
      [[1, 'body', 'body', 'body', 'then', 'body'], 'f[f.s0.x] <- y', ['f', 'f.s0']],
      [[1, 'body', 'body', 'body', 'else'], 'f[f.s0.x] <- 0', ['f', 'f.s0']],
      [[2], 'for i in (0, n) do …', []],
      [[2, 'body'], 'nop', []],
    ]);
  });
});

describe('findStmt and someStmt', () => {
  it('find the first statement in program order, with its path', () => {
    const hit = findStmt(t.body, (s) => s.k === 'store');
    expect(hit?.path).toEqual([1, 'body', 'body', 'body', 'then', 'body']);
    expect(hit?.stmt).toBe(stmtAt(t.body, hit!.path));
    expect(findStmt(t.body, (s) => s.k === 'assert')).toBeUndefined();
    expect(findStmt(t.body, (s) => s.k === 'seq')?.path).toEqual([]);
    expect(someStmt(t.body, (s) => s.k === 'let')).toBe(true);
    expect(someStmt(t.body, (s) => s.k === 'for' && s.trav === 'parallel')).toBe(false);
  });
});

describe('stmtAt', () => {
  it('follows a path, and leads nowhere off the tree', () => {
    expect(stmtAt(t.body, [2, 'body'])?.k).toBe('nop');
    expect(stmtAt(t.body, [])).toBe(t.body);
    expect(stmtAt(t.body, [3])).toBeUndefined();
    expect(stmtAt(t.body, [0, 'body'])).toBeUndefined();
    expect(stmtAt(t.body, [1, 'then'])).toBeUndefined();
  });
});

describe('replaceAt and replaceInProgram', () => {
  it('rewrite the statement at a path and share everything else', () => {
    const body = replaceAt(t.body, [2], (s) => ({ ...(s as Extract<Stmt, { k: 'for' }>), trav: 'parallel' }));
    expect(stmtAt(body, [2])).toMatchObject({ k: 'for', var: 'i', trav: 'parallel' });
    expect(stmtAt(body, [1])).toBe(stmtAt(t.body, [1]));
    expect(stmtAt(body, [0])).toBe(stmtAt(t.body, [0]));
    const p = replaceInProgram(t, [2, 'body'], () => ({ k: 'assert', cond: { k: 'var', name: 'n' } }));
    expect(printHead(stmtAt(p.body, [2, 'body'])!)).toBe('assert n');
    expect(p.params).toBe(t.params);
  });

  it('refuse a path that leads nowhere', () => {
    expect(() => replaceAt(t.body, [0, 'body'], (s) => s)).toThrow(/no statement at step body of a allocate/);
    expect(() => replaceAt(t.body, [7], (s) => s)).toThrow(/no statement at step 7 of a seq/);
  });
});

describe('removeAt', () => {
  it('drops a statement from its block, or leaves nop in its place elsewhere', () => {
    const dropped = removeAt(t.body, [0]);
    expect(children(dropped).map(([, c]) => printHead(c))).toEqual(['label f: …', 'for i in (0, n) do …']);
    const twoLeft = removeAt(dropped, [1]);
    expect(twoLeft).toBe(stmtAt(t.body, [1])); // a block of one statement is that statement
    expect(stmtAt(removeAt(t.body, [1, 'body', 'body', 'body', 'then']), [1, 'body', 'body', 'body', 'then'])).toEqual({ k: 'nop' }); // a fresh nop, without a location
  });
});

describe('loopsOf', () => {
  it('lists the loops with their names, paths and labels', () => {
    expect(loopsOf(t).map((l) => [l.stmt.var, l.name, l.path, l.labels])).toEqual([
      ['f.s0.x', { func: 'f', stage: 0, spec: 0, v: 'x' }, [1, 'body', 'body'], ['f', 'f.s0']],
      ['i', undefined, [2], []],
    ]);
  });

  it('gives every call its own array', () => {
    const a = loopsOf(t);
    a.pop();
    expect(loopsOf(t)).toHaveLength(2);
  });
});

describe('isInside', () => {
  it('holds of paths strictly below another', () => {
    expect(isInside([1, 'body'], [1])).toBe(true);
    expect(isInside([1], [1])).toBe(false);
    expect(isInside([2, 'body'], [1])).toBe(false);
    expect(isInside([1], [])).toBe(true);
  });
});

describe('on generated programs', () => {
  it('each visited path leads back to its statement; replacing by identity changes nothing', () => {
    fc.assert(fc.property(arbTgtProgram(), (p) => {
      const paths: StmtPath[] = [];
      visitStmts(p.body, (s, path) => {
        expect(stmtAt(p.body, path)).toBe(s);
        paths.push(path);
      });
      for (const path of paths) expect(replaceAt(p.body, path, (s) => s)).toEqual(p.body);
      // Pre-order: a statement comes before everything inside it.
      paths.forEach((path, i) => paths.slice(0, i).forEach((before) => expect(isInside(before, path)).toBe(false)));
    }), { numRuns: 150, seed: 11 });
  });

  it('loopsOf lists the for statements visitStmts meets, in the same order', () => {
    fc.assert(fc.property(arbTgtProgram(), (p) => {
      const fors: StmtPath[] = [];
      visitStmts(p.body, (s, path) => void (s.k === 'for' && fors.push(path)));
      expect(loopsOf(p).map((l) => l.path)).toEqual(fors);
      for (const l of loopsOf(p)) expect(stmtAt(p.body, l.path)).toBe(l.stmt);
    }), { numRuns: 150, seed: 12 });
  });

  it('removeAt leaves one statement fewer, or a nop in its place', () => {
    fc.assert(fc.property(arbTgtProgram(), fc.nat(), (p, k) => {
      const all: StmtPath[] = [];
      visitStmts(p.body, (_s, path) => void (path.length > 0 && all.push(path)));
      fc.pre(all.length > 0);
      const path = all[k % all.length]!;
      const count = (s: Stmt) => {
        let n = 0;
        visitStmts(s, (x) => void (x.k !== 'seq' && x.k !== 'nop' && n++));
        return n;
      };
      let removed = 0;
      visitStmts(stmtAt(p.body, path)!, (x) => void (x.k !== 'seq' && x.k !== 'nop' && removed++));
      expect(count(removeAt(p.body, path))).toBe(count(p.body) - removed);
    }), { numRuns: 150, seed: 13 });
  });
});
