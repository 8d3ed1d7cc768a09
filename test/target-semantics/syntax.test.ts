// Concrete syntax of Tgt / Tgt? (fig. 2.7): round trip, examples, and file:line:col errors.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/diag.js';
import { arbTgtProgram } from '../../src/fuzz/arbitraries/tgt.js';
import { holesOf } from '../../src/target-semantics/holes.js';
import { parseStmtText, parseTgt } from '../../src/target-semantics/parse.js';
import { printStmt, printTgt, printTgtLines } from '../../src/target-semantics/print.js';
import { visitStmts } from '../../src/target-semantics/walk.js';
import { examplesDir } from '../support/files.js';
import { stripLocs, tgt } from './support.js';

function errorOf(src: string): string {
  try {
    parseTgt(src, 'bad.tgt');
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as UserError).render();
  }
  throw new Error('expected a parse error');
}

describe('Tgt syntax', () => {
  it('round-trips generated programs: parse(print(p)) = p up to locations', () => {
    fc.assert(
      fc.property(arbTgtProgram(), (p) => {
        expect(stripLocs(parseTgt(printTgt(p), 'rt.tgt'))).toEqual(stripLocs(p));
      }),
      { numRuns: 300 },
    );
  });

  it('printTgtLines prints the same text and puts each statement on the line it starts on', () => {
    fc.assert(
      fc.property(arbTgtProgram(), (p) => {
        const { text, lineOf } = printTgtLines(p);
        expect(text).toBe(printTgt(p));
        const lines = text.split('\n');
        // an if's nop else is not printed, so it alone may have no line
        visitStmts(p.body, (s) => (lineOf.has(s) ? expect(lines[lineOf.get(s)!]).toContain(printStmt(s).trim().split('\n')[0]) : expect(s.k).toBe('nop')));
      }),
      { numRuns: 200 },
    );
  });

  it('answers damaged programs with a UserError, never a crash', () => {
    fc.assert(
      fc.property(arbTgtProgram(), fc.nat(), fc.nat(), fc.string({ maxLength: 3 }), (p, at, n, junk) => {
        const text = printTgt(p);
        const i = at % (text.length + 1);
        const damaged = text.slice(0, i) + junk + text.slice(i + (n % 4));
        try {
          parseTgt(damaged, 'd.tgt');
        } catch (e) {
          expect(e).toBeInstanceOf(UserError);
          expect((e as UserError).loc?.file).toBe('d.tgt');
        }
      }),
      { numRuns: 300 },
    );
  });

  it.each(readdirSync(examplesDir).filter((f) => f.endsWith('.tgt')))('examples/%s parses and round-trips', (f) => {
    const p = parseTgt(readFileSync(join(examplesDir, f), 'utf8'), f);
    expect(stripLocs(parseTgt(printTgt(p), f))).toEqual(stripLocs(p));
  });

  it('parses every statement form of fig. 2.7 with labels and holes', () => {
    const p = tgt(`pipeline f(k; x in (x.min, x.len))
      hint bound g.x in (0, 10)
      hint bound-extent g.x 16
      hint align-bounds g.x (4, 1)
    : {
      allocate g(x in (?mem.min(g.x), ?mem.len(g.x)));
      label g: for parallel g.s0.x in (?cpu.min(g.x@s0), ?cpu.len(g.x@s0)) do g[g.s0.x] <- k;
      for vectorize g.s1.k2.x in (?cpu.min(g.x@s1.k2), 4) do g@s1.k2[g.s1.k2.x] <- g@s0[g.s1.k2.x] + 1;
      for unroll u in (0, 2) do nop;
      let t = 3 in if t > 2 then assert t else nop;
      allocate f(x in (x.min, x.len));
      f[x.min] <- g[x.min]
    }`);
    expect(p.hints?.map((h) => h.k)).toEqual(['bound', 'bound-extent', 'align-bounds']);
    expect(holesOf(p).map((h) => `${h.kind}.${h.end}(${h.func}.${h.dim}@${h.stage ?? '-'}.${h.spec ?? '-'})`)).toEqual([
      'mem.min(g.x@-.-)',
      'mem.len(g.x@-.-)',
      'cpu.min(g.x@0.-)',
      'cpu.len(g.x@0.-)',
      'cpu.min(g.x@1.2)',
    ]);
    const body = p.body.k === 'seq' ? p.body.body : [];
    expect(body.map((s) => s.k)).toEqual(['allocate', 'label', 'for', 'for', 'let', 'allocate', 'store']);
    expect(body[2]).toMatchObject({ k: 'for', trav: 'vectorize', body: { k: 'store', ref: { stage: 1, spec: 2 } } });
    expect(body[3]).toMatchObject({ trav: 'unroll' });
    expect(stripLocs(parseTgt(printTgt(p), 'rt.tgt'))).toEqual(stripLocs(p));
  });

  it('keeps a nested if unambiguous when printing (dangling else)', () => {
    const s = parseStmtText('if a then if b then nop else g[0] <- 1 else g[0] <- 2', 'x');
    // the first else attaches to the nearest if, the second to the outer one
    expect(s).toMatchObject({ k: 'if', then: { k: 'if', else: { k: 'store' } }, else: { k: 'store' } });
    const outer = { k: 'if', cond: { k: 'var', name: 'a' }, then: { k: 'if', cond: { k: 'var', name: 'b' }, then: { k: 'nop' }, else: { k: 'nop' } }, else: { k: 'nop' } } as const;
    const withElse = { ...outer, else: { k: 'assert', cond: { k: 'const', value: 0 } } } as const;
    expect(parseStmtText(printStmt(withElse))).toMatchObject({ then: { else: { k: 'nop' } }, else: { k: 'assert' } });
  });

  it.each([
    ['pipeline f(; x in (a, b)): for x in (0 1) do nop', "bad.tgt:1:40: error: expected ',' but found number 1"],
    ['pipeline f(): { nop; nop', "bad.tgt:1:25: error: expected '}' but found the end of the input"],
    ['pipeline f(): f[0] = 1', "bad.tgt:1:20: error: expected '<-' but found '='"],
    ['pipeline f(): ?cpu.min(f.x) <- 1', 'bad.tgt:1:15: error: expected a statement'],
    ['pipeline f(a, a): nop', "bad.tgt:1:15: error: 'a' is declared twice"],
    ['pipeline f(): nop nop', 'bad.tgt:1:19: error: expected the end of the program'],
    ['pipeline f(): let in = 1 in nop', "bad.tgt:1:19: error: 'in' is a reserved word"],
    ['pipeline f(): g[?mem.min(g.x@s0)] <- 1', 'bad.tgt:1:26: error: allocation holes have no stage'],
    ['pipeline f()\n  hint bounds f.x in (0, 1): nop', "bad.tgt:2:8: error: 'bounds' is not a bounds hint"],
  ])('reports %j at its location', (src, msg) => {
    expect(errorOf(src)).toContain(msg);
  });
});
