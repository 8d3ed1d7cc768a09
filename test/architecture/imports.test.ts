// The import graph of src/ stays as docs/architecture.md draws it: the core that the browser runs
// imports no Node module, uses no `process`, and reaches nothing of the edge; every folder imports
// only the floors below it; folders form no cycle.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(__dirname, '..', '..', 'src');

/** The core runs in a browser: it is bundled for the playground as it is. */
const CORE = ['diag', 'rng', 'fpir', 'expr', 'simplify', 'alg-semantics', 'target-semantics', 'effects', 'lowering', 'schedule', 'bounds', 'perceus', 'pipeline', 'report'];
/** Modules of edge folders that the browser runs too (the playground's rule links). */
const CORE_FILES = ['rules/spec-rules.ts'];

/**
 * What each folder may import (besides itself). Floors follow the thesis: values and expressions,
 * algorithms, target programs, lowering, scheduling, bounds, then the flow that composes them; the
 * edge (Node, the command line, fuzzing, code generation, benchmarks) sits on top.
 */
const CORE_BELOW: Record<string, readonly string[]> = {
  diag: [],
  rng: [],
  // FPIR stands beside the Halide core: fixed-point expressions, instruction models and rules; its
  // proofs share the Z3 layer of expr/smt.ts.
  fpir: ['diag', 'rng', 'expr'],
  expr: ['diag'],
  // Halide's rewrite rules name integer widths that wrap; FPIR's scalar types and bit-vector
  // division already model them, so the simplifier sits one floor above FPIR, never beside it.
  simplify: ['diag', 'rng', 'expr', 'fpir'],
  'alg-semantics': ['diag', 'expr'],
  'target-semantics': ['diag', 'rng', 'expr', 'alg-semantics'],
  // Effects of target programs and their safety conditions (thesis ch. 3, after Exo).
  effects: ['diag', 'expr', 'target-semantics'],
  lowering: ['diag', 'expr', 'alg-semantics', 'target-semantics'],
  schedule: ['diag', 'rng', 'expr', 'alg-semantics', 'target-semantics', 'effects', 'lowering'],
  bounds: ['diag', 'expr', 'simplify', 'alg-semantics', 'target-semantics', 'lowering', 'schedule'],
  perceus: ['diag', 'expr'],
  pipeline: ['diag', 'expr', 'alg-semantics', 'target-semantics', 'lowering', 'schedule', 'bounds'],
  report: ['diag', 'expr', 'alg-semantics', 'target-semantics', 'lowering', 'schedule', 'bounds', 'perceus', 'pipeline'],
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? files(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []));
}

/** `expr/ops.ts` → `expr`; a top-level file is its own folder (`pipeline.ts` → `pipeline`). */
const folderOf = (file: string): string => {
  const r = relative(src, file).split('/');
  return r.length === 1 ? r[0]!.replace(/\.ts$/, '') : r[0]!;
};

interface Edge {
  readonly from: string;
  readonly to: string;
}

const graph = files(src).map((file) => {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/^(?:import|export)\s[^'";]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm)].map((m) => m[1] ?? m[2]!);
  const imports = specs.filter((s) => s.startsWith('.')).map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')));
  const node = specs.filter((s) => s.startsWith('node:'));
  // `process` as a global, outside comments and strings (a rough but sufficient reading).
  const code = text.replace(/\/\/.*$/gm, '').replace(/\/\*[\s\S]*?\*\//g, '').replace(/'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`/g, "''");
  return { file, rel: relative(src, file), folder: folderOf(file), imports, node, usesProcess: /\bprocess\./.test(code) };
});

describe('import graph of src/', () => {
  it('the core imports no Node module and no `process`', () => {
    const bad = graph
      .filter((f) => CORE.includes(f.folder) || CORE_FILES.includes(f.rel))
      .flatMap((f) => [...f.node.map((n) => `${f.rel} imports ${n}`), ...(f.usesProcess ? [`${f.rel} uses process`] : [])]);
    expect(bad).toEqual([]);
  });

  it('every core folder imports only the floors below it', () => {
    const bad = graph
      .filter((f) => f.folder in CORE_BELOW)
      .flatMap((f) => f.imports.map((t) => ({ f, to: folderOf(t) })))
      .filter(({ f, to }) => to !== f.folder && !CORE_BELOW[f.folder]!.includes(to))
      .map(({ f, to }) => `${f.rel} → ${to}`);
    expect([...new Set(bad)]).toEqual([]);
  });

  it('no cycle between folders', () => {
    const edges: Edge[] = [...new Set(graph.flatMap((f) => f.imports.map((t) => `${f.folder}>${folderOf(t)}`)))]
      .map((e) => e.split('>') as [string, string])
      .filter(([a, b]) => a !== b)
      .map(([from, to]) => ({ from, to }));
    const next = (a: string) => edges.filter((e) => e.from === a).map((e) => e.to);
    const cycles: string[] = [];
    const path: string[] = [];
    const done = new Set<string>();
    const visit = (a: string): void => {
      if (path.includes(a)) return void cycles.push([...path.slice(path.indexOf(a)), a].join(' → '));
      if (done.has(a)) return;
      path.push(a);
      next(a).forEach(visit);
      path.pop();
      done.add(a);
    };
    [...new Set(edges.map((e) => e.from))].forEach(visit);
    expect(cycles).toEqual([]);
  });

  it('no cycle between files (a file pair importing each other is one concept split in two)', () => {
    const byFile = new Map(graph.map((f) => [f.file, f.imports]));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (f: string): void => {
      if (state.get(f) === 'open') return void cycles.push([...stack.slice(stack.indexOf(f)), f].map((x) => relative(src, x)).join(' → '));
      if (state.get(f) === 'done') return;
      state.set(f, 'open');
      stack.push(f);
      (byFile.get(f) ?? []).forEach(visit);
      stack.pop();
      state.set(f, 'done');
    };
    [...byFile.keys()].forEach(visit);
    expect(cycles).toEqual([]);
  });

  it('the lists above name files and folders that exist', () => {
    const folders = new Set(graph.map((f) => f.folder));
    for (const f of CORE_FILES) expect(graph.some((g) => g.rel === f), f).toBe(true);
    for (const f of [...CORE, ...Object.keys(CORE_BELOW)]) expect(folders.has(f), `'${f}' names no folder of src/`).toBe(true);
  });
});
