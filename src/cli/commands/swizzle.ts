// `refsem swizzle run|check|synth FILE`: the swizzle language (spec/swizzle.md) — evaluate a
// program, check a filled program against its goal, or fill a sketch's holes by the pruned
// enumerative search of the seed's §3–4.
import { UserError, argLoc } from '../../diag.js';
import { EXIT } from '../../node/io.js';
import { readSource } from '../../node/source.js';
import { DiskMatrixStore, MAX_ENTRY_MB, defaultMatrixDir } from '../../node/matrix-cache.js';
import { holesOf, type SwzProgram } from '../../swizzle/ast.js';
import { evaluate, goalMismatch } from '../../swizzle/eval.js';
import { parseSwizzle } from '../../swizzle/parse.js';
import { printSwizzle, showArray } from '../../swizzle/print.js';
import { flatToIndex, summarize } from '../../swizzle/report.js';
import { synthesize } from '../../swizzle/synth.js';
import { DEFAULT_MEMORY_MB } from '../../swizzle/viability.js';
import { parseIntOption } from '../options.js';
import { execFileSync } from 'node:child_process';
import { hostIsas } from '../../codegen/cpu.js';
import { compileStandalone } from '../../codegen/toolchain.js';
import { expectedValues, lowerToC } from '../../swizzle/lower.js';
import { seededRng } from '../../rng.js';
import { CheckFailed } from '../main.js';
import type { Register } from './index.js';

function load(path: string): SwzProgram {
  const src = readSource(path);
  return parseSwizzle(src.text, src.file);
}

function noHoles(p: SwzProgram, what: string): void {
  const hs = holesOf(p);
  if (hs.length) {
    const s = p.stmts[hs[0]!]!;
    throw new UserError(`'${s.name}' is a hole (?${s.rhs.k === 'gather' ? s.rhs.fn : ''}): a sketch cannot be ${what}`, s.loc, 'fill the holes, or find fillings with `refsem swizzle synth`');
  }
}

export const register: Register = (program, io, setExit) => {
  const sw = program.command('swizzle').description('the swizzle language of Swizzleflow: run, check and synthesize data-movement kernels (spec/swizzle.md)');
  sw.command('run')
    .description('evaluate a program without holes and print its last array (every array with --all)')
    .argument('<file>', 'a swizzle program (.swz)')
    .option('--all', 'print every array')
    .action((file: string, o: { all?: boolean }) => {
      const p = load(file);
      noHoles(p, 'run');
      const vals = evaluate(p);
      const shown = o.all ? p.stmts.map((_, i) => i) : [p.stmts.length - 1];
      for (const i of shown) io.out(`${p.stmts[i]!.name} = ${showArray(p.terms, vals[i]!, p.stmts[i]!.shape)}\n`);
    });
  sw.command('check')
    .description('does this filled program meet its goal? (exit 1 with the first differing cell if not)')
    .argument('<file>', 'a swizzle program (.swz) with a goal and no holes')
    .action((file: string) => {
      const p = load(file);
      noHoles(p, 'checked');
      const goal = p.goal;
      if (!goal) throw new UserError('the program has no goal to check', { file: p.file, line: 1, col: 1 }, 'add a last line: goal NAME = …');
      const vals = evaluate(p);
      const k = goalMismatch(p, vals);
      const s = p.stmts[goal.stmt]!;
      if (k < 0) {
        io.out(`${p.file}: goal met: ${s.name} ${'[' + s.shape.join(', ') + ']'} equals the goal in all ${vals[goal.stmt]!.length} cells\n`);
        return;
      }
      io.out(`${p.file}: goal not met: ${s.name}${flatToIndex(k, s.shape)} is ${p.terms.show(vals[goal.stmt]![k]!)}, the goal wants ${p.terms.show(goal.terms[k]!)}\n`);
      throw new CheckFailed();
    });
  sw.command('lower')
    .description('lower a program (a sketch: its first solution) to x86 permutes from the intrinsic table, interpret and run it here, and compare both with the evaluator on random values')
    .argument('<file>', 'a swizzle program (.swz)')
    .option('--seed <n>', 'seed of the random values of the symbols', '1')
    .option('--avx512', 'also use AVX-512 entries (valignd for windows of two registers)')
    .option('--print', 'print the C program')
    .action(async (file: string, o: { seed: string; avx512?: boolean; print?: boolean }) => {
      const p = load(file);
      const seed = Number(parseIntOption('--seed', o.seed, 0n, 2n ** 31n - 1n));
      const filling = holesOf(p).length ? synthesize(p).solutions[0] : [];
      if (!filling) throw new UserError('the sketch has no solution to lower', { file: p.file, line: 1, col: 1 });
      const rng = seededRng(seed);
      const sym = new Map<number, number>();
      for (let t = 2; t < p.terms.size; t++) if (!p.terms.isFold(t)) sym.set(t, (rng.below(2 ** 16) * 2 ** 16 + rng.below(2 ** 16)) | 0);
      const c = lowerToC(p, filling, sym, { avx512: o.avx512 ?? false });
      if (o.print) io.out(c.source);
      const want = expectedValues(p, filling, sym);
      const calls = [...c.calls].map(([name, k]) => `${k} ${name}`).join(', ') || 'no calls';
      const m = want.findIndex((v, i) => c.interpreted[i] !== v);
      if (m >= 0) {
        io.out(`${p.file}: the table's machine differs from the evaluator at cell ${m}: ${c.interpreted[m]} instead of ${want[m]} (seed ${seed})\n`);
        throw new CheckFailed();
      }
      const isa = o.avx512 ? 'avx512' : 'avx2';
      if (!hostIsas().has(isa)) {
        io.out(`${p.file}: the table's machine equals the evaluator (${calls}); the C program not run: this CPU has no ${isa.toUpperCase()} (unknown, not a pass)\n`);
        setExit(EXIT.checkFailed);
        return;
      }
      const bin = await compileStandalone(c.source);
      if ('error' in bin) throw new Error(`the emitted C did not compile: ${bin.error}`);
      let got: number[];
      try {
        got = execFileSync(bin.bin, { encoding: 'utf8', timeout: 20_000 }).trim().split('\n').map(Number);
      } finally {
        bin.done();
      }
      const k = want.findIndex((v, i) => got[i] !== v);
      if (k < 0 && got.length === want.length) {
        io.out(`${p.file}: the C program and the table's machine equal the evaluator on all ${want.length} cells (${calls}; seed ${seed})\n`);
        return;
      }
      io.out(`${p.file}: the C program differs from the evaluator at cell ${k}: ${got[k]} instead of ${want[k]} (seed ${seed})\n`);
      throw new CheckFailed();
    });
  sw.command('synth')
    .description('fill every hole by enumerative search pruned by pair reachability and copy counts')
    .argument('<file>', 'a swizzle sketch (.swz) with holes and a goal')
    .option('--all', 'find every solution (and the oracle\'s count of states)')
    .option('--timeout <ms>', 'stop the search after this many milliseconds')
    .option('--memory <mb>', `limit on the reachability matrices (default ${DEFAULT_MEMORY_MB})`)
    .option('--cache [dir]', 'keep the reachability matrices between runs, in this folder (default $REFSEM_CACHE_DIR, $XDG_CACHE_HOME/refsem or ~/.cache/refsem, then swizzle-matrices)')
    .option('--json', 'print one JSON object')
    .action((file: string, o: { all?: boolean; timeout?: string; memory?: string; cache?: string | true; json?: boolean }) => {
      const p = load(file);
      const timeoutMs = o.timeout === undefined ? undefined : Number(parseIntOption('--timeout', o.timeout, 1n, 10n ** 9n));
      const memoryMb = o.memory === undefined ? DEFAULT_MEMORY_MB : Number(parseIntOption('--memory', o.memory, 1n, 10n ** 6n));
      if (!p.goal) throw new UserError('the sketch has no goal to synthesize for', { file: p.file, line: 1, col: 1 }, 'add a last line: goal NAME = …');
      if (o.memory !== undefined && !Number.isFinite(memoryMb)) throw new UserError('bad --memory', argLoc('--memory', o.memory));
      // Off by default, so that a run's output never depends on what an earlier run left behind.
      const store = o.cache === undefined ? undefined : new DiskMatrixStore(o.cache === true ? defaultMatrixDir() : o.cache);
      const r = synthesize(p, { all: o.all === true, ...(timeoutMs !== undefined ? { timeoutMs } : {}), memoryMb, ...(store ? { matrices: store } : {}) });
      const sum = summarize(p, r);
      const cache = store && (store.hits ? `read from ${store.dir}` : store.writes ? `computed, kept in ${store.dir}` : `computed, not kept (larger than ${MAX_ENTRY_MB} MB, or ${store.dir} is not writable)`);
      if (o.json) io.out(`${JSON.stringify({ file: p.file, ...sum, ...(cache ? { cache } : {}), solutions: r.solutions.map((f) => printSwizzle(p, f)) })}\n`);
      else {
        r.solutions.forEach((f, i) => io.out(`// solution ${i + 1}\n${printSwizzle(p, f)}\n`));
        for (const line of sum.lines) io.out(`${line}\n`);
        if (cache) io.out(`matrices: ${cache} in ${r.ms.matrices} ms\n`);
      }
      if (r.solutions.length === 0) setExit(EXIT.checkFailed);
    });
};
