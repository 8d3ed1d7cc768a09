// The toolchain driver (spec/codegen.md, "Toolchain"): finds the system C compiler ($CC, default
// cc) and whether it has OpenMP, compiles many pipelines into one translation unit and one binary
// (compile time dominates, so batching is what makes validation fast, §5.2), runs the binary under
// time and memory limits, reads its results back, and removes its temporary files.
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { writeFileSync } from 'node:fs';
import { cleanupOnExit } from '../node/exit-cleanup.js';
import { makeTempDir, removeTempDir } from '../node/temp-dir.js';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Input } from '../alg-semantics/ast.js';
import { UserError } from '../diag.js';
import { type Int, type Value, E_MEM, E_RDOM, intFromString, toBig } from '../expr/value.js';
import type { TgtProgram } from '../target-semantics/ast.js';
import { type StatusName, statusName } from './abi.js';
import { precompiledHeader } from './pch.js';
import { type EmitOptions, type EmittedPipeline, emitPipeline, runtimeText } from './emit-c.js';
import { cString } from './c-syntax.js';

export interface Toolchain {
  readonly cc: readonly string[];
  readonly cflags: readonly string[];
  readonly openmp: boolean;
  readonly version: string;
}

export interface RunLimits {
  /** Compile time limit per translation unit, ms (default 120 000). */
  readonly compileTimeoutMs?: number;
  /** Run time limit per run of a pipeline on one input, ms (default 20 000). */
  readonly runTimeoutMs?: number;
  /** Address-space limit of the binary, MiB (default 4096; OpenMP threads reserve stacks). */
  readonly memoryLimitMb?: number;
}

export interface ToolchainOptions extends RunLimits {
  /** Compile with -DREFSEM_CHECKED: every access is bounds checked and reported. */
  readonly checked?: boolean;
  /** Use OpenMP when the compiler has it (default true). */
  readonly openmp?: boolean;
  /** Keep the temporary directories (under the system temp dir, `refsem-cc-*`) for debugging. */
  readonly keepTemp?: boolean;
  /** Times each pipeline is called per input (timing; results are from the last call). */
  readonly repeat?: number;
  readonly env?: NodeJS.ProcessEnv;
  /** Called with each program's emitted C (by its index in the batch), e.g. to read its variant markers without emitting it again. */
  readonly onEmitted?: (program: number, p: EmittedPipeline) => void;
}

const split = (s: string): string[] => s.split(/\s+/).filter((x) => x.length > 0);

const detected = new Map<string, Toolchain>();

/**
 * `C-TOOLCHAIN`: the compiler from $CC (default `cc`) and flags from $CFLAGS (default `-O2`, used
 * verbatim when set: no flag is added except -fopenmp when the compiler accepts it).
 */
export function detectToolchain(env: NodeJS.ProcessEnv = process.env): Toolchain {
  const cc = split(env.CC ?? '') .length > 0 ? split(env.CC!) : ['cc'];
  const cflags = env.CFLAGS !== undefined ? split(env.CFLAGS) : ['-O2'];
  const key = JSON.stringify([cc, cflags]);
  const known = detected.get(key);
  if (known) return known;
  const v = spawnSync(cc[0]!, [...cc.slice(1), '--version'], { encoding: 'utf8' });
  if (v.error || v.status !== 0) {
    throw new UserError(
      `no C compiler found: '${cc.join(' ')}' ${v.error ? 'could not be started' : 'failed on --version'}`,
      undefined,
      'install gcc or clang, or point $CC at a C11 compiler',
    );
  }
  const dir = makeTempDir('refsem-cc-');
  let openmp = false;
  try {
    writeFileSync(join(dir, 'omp.c'), '#include <omp.h>\nint main(void) { return omp_get_max_threads() > 0 ? 0 : 1; }\n');
    const r = spawnSync(cc[0]!, [...cc.slice(1), '-fopenmp', '-o', join(dir, 'omp'), join(dir, 'omp.c')], { encoding: 'utf8' });
    openmp = r.status === 0;
  } finally {
    removeTempDir(dir);
  }
  const tc: Toolchain = { cc, cflags, openmp, version: (v.stdout.split('\n')[0] ?? '').trim() };
  detected.set(key, tc);
  return tc;
}

/** One run of one pipeline of a batch on one input. */
export type BinaryResult = { readonly program: number; readonly input: number } & (
  | {
      readonly kind: 'ran';
      readonly status: StatusName;
      readonly message?: string;
      /** RS_OVERFLOW: the operator and operands that left 64 bits. */
      readonly overflow?: { readonly op: string; readonly a: Int; readonly b: Int };
      /** Status ok: the output's allocation bounds and its values on the requested window, first
       * dimension fastest; `undefined` marks a window point outside the allocation. */
      readonly output?: { readonly dims: readonly (readonly [Int, Int])[]; readonly window: readonly (Value | undefined)[] };
      /** the mean time of one repetition (the runs' total over their number; frees between them included) */
      readonly timeNs: number;
      /** the fastest single repetition, when the driver reports it */
      readonly bestNs?: number;
      /** [C-VARIANT] the variant markers that ran (bit k: marker k of the compiled code) */
      readonly ran?: bigint;
    }
  | { readonly kind: 'crashed'; readonly message: string }
  | { readonly kind: 'timeout'; readonly message: string }
  | { readonly kind: 'compile-error'; readonly message: string }
);

export interface BatchItem {
  readonly t: TgtProgram;
  readonly inputs: readonly Input[];
  readonly emit?: EmitOptions;
}

const DRIVER = String.raw`
/* The driver answers on descriptor 3, so that whatever the pipeline prints cannot be read as an answer. */
static FILE *rs_proto;
static void rs_print_value(const refsem_result *r, const int64_t *w, int nw) {
  int64_t total = 1;
  for (int d = 0; d < nw; d++) total *= w[2 * d + 1];
  int64_t c[RS_MAXDIM];
  for (int d = 0; d < nw; d++) c[d] = 0;
  fputs("values", rs_proto);
  for (int64_t k = 0; k < total; k++) {
    int64_t off = 0, stride = 1, inside = nw == r->ndims;
    for (int d = 0; d < nw && inside; d++) {
      int64_t p = w[2 * d] + c[d];
      if (p < r->min[d] || p - r->min[d] >= r->len[d]) inside = 0;
      off += (p - r->min[d]) * stride;
      stride *= r->len[d];
    }
    if (!inside) fputs(" x", rs_proto);
    else {
      uint8_t t = r->tag ? r->tag[off] : 0;
      if (t == RS_TAG_INT) fprintf(rs_proto, " %lld", (long long)r->data[off]);
      else fputs(t == RS_TAG_RDOM ? " r" : " m", rs_proto);
    }
    for (int d = 0; d < nw; d++) {
      if (++c[d] < w[2 * d + 1]) break;
      c[d] = 0;
    }
  }
  fputc('\n', rs_proto);
}
int main(int argc, char **argv) {
  if (argc > 1) rs_alloc_limit = strtoll(argv[1], NULL, 10);
  rs_proto = fdopen(3, "w");
  if (!rs_proto) return 2;
#ifdef __GLIBC__
  /* Repeated runs reuse freed buffers instead of mapping fresh pages each time. */
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
  long long p, i, reps;
  int np, nw;
  while (scanf(" run %lld %lld %lld %d", &p, &i, &reps, &np) == 4) {
    int64_t params[64], window[2 * RS_MAXDIM];
    for (int k = 0; k < np; k++) { long long v; if (scanf("%lld", &v) != 1) return 2; params[k] = v; }
    if (scanf("%d", &nw) != 1) return 2;
    for (int k = 0; k < 2 * nw; k++) { long long v; if (scanf("%lld", &v) != 1) return 2; window[k] = v; }
    fprintf(rs_proto, "begin %lld %lld\n", p, i);
    fflush(rs_proto);
    refsem_result r;
    struct timespec t0, t1, tk;
    long long best = -1;
    rs_ran = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    tk = t0;
    for (long long k = 0; k < reps; k++) {
      rs_entries[p](params, window, &r);
      /* the fastest single repetition: a burst of other load spoils only the runs it falls on */
      clock_gettime(CLOCK_MONOTONIC, &t1);
      long long d = (t1.tv_sec - tk.tv_sec) * 1000000000LL + (t1.tv_nsec - tk.tv_nsec);
      if (best < 0 || d < best) best = d;
      if (k + 1 < reps) { free(r.data); free(r.tag); }
      clock_gettime(CLOCK_MONOTONIC, &tk);
    }
    fprintf(rs_proto, "status %d\n", r.status);
    if (r.status != RS_OK) {
      for (char *q = r.message; *q; q++) if (*q == '\n') *q = ' ';
      fprintf(rs_proto, "message %s\n", r.message);
    }
    if (r.status == RS_OVERFLOW) fprintf(rs_proto, "overflow %c %lld %lld\n", r.op, (long long)r.a, (long long)r.b);
    if (r.status == RS_OK) {
      fprintf(rs_proto, "dims %d", r.ndims);
      for (int d = 0; d < r.ndims; d++) fprintf(rs_proto, " %lld %lld", (long long)r.min[d], (long long)r.len[d]);
      fputc('\n', rs_proto);
      rs_print_value(&r, window, nw);
    }
    free(r.data);
    free(r.tag);
    fprintf(rs_proto, "ran %llu\n", (unsigned long long)rs_ran);
    fprintf(rs_proto, "best_ns %lld\n", best);
    fprintf(rs_proto, "time_ns %lld\nend\n", (long long)((t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec)) / (reps > 0 ? reps : 1));
    fflush(rs_proto);
  }
  return 0;
}
`;

/** The batch's header: feature macros, system headers and the runtime ([C-PCH] precompiles it). */
function batchHeader(simd: boolean): string {
  return ['#define _POSIX_C_SOURCE 200809L', '#include <time.h>', '#ifdef __GLIBC__', '#include <malloc.h>', '#endif', runtimeText(simd), ''].join('\n');
}

/**
 * `C-BATCH`: one translation unit for many pipelines (each under its own symbol) and a driver
 * that reads `run` commands on stdin. `impl` replaces the emitted code by the user's own C file
 * (external backends): it is included after the runtime header and must define the entry. The
 * header is written out, or included from `header` (its precompiled form, [C-PCH]).
 */
export function batchSource(pipes: readonly EmittedPipeline[], include?: string, header?: string): string {
  const simd = pipes.some((p) => p.simd);
  const parts = [
    `/* [${'C-BATCH'}] generated by refsem: batched pipelines and driver (spec/codegen.md) */`,
    header !== undefined ? `#include ${cString(header)}` : batchHeader(simd),
  ];
  if (include !== undefined) parts.push(`#include ${cString(include)}`);
  else parts.push(...pipes.map((p) => p.text));
  parts.push('typedef void (*rs_entry)(const int64_t *, const int64_t *, refsem_result *);');
  parts.push(`static const rs_entry rs_entries[] = {${pipes.map((p) => p.name).join(', ')}};`);
  return parts.join('\n') + '\n' + DRIVER;
}

/** The flags of every compile: $CFLAGS, -fopenmp when available, -DREFSEM_CHECKED when checked. */
function compileFlags(tc: Toolchain, opts: ToolchainOptions): string[] {
  return [...tc.cflags, ...(tc.openmp && opts.openmp !== false ? ['-fopenmp'] : []), ...(opts.checked ? ['-DREFSEM_CHECKED'] : [])];
}

const flagsChecked = new Map<string, boolean>();

/**
 * Whether the toolchain compiles a plain C file with its flags: when it does and refsem's own C
 * does not compile, the fault is refsem's (an internal error); when it does not, the settings are
 * at fault ($CC, $CFLAGS: bad input).
 */
export function toolchainCompilesC(tc: Toolchain): boolean {
  const key = JSON.stringify([tc.cc, tc.cflags]);
  const known = flagsChecked.get(key);
  if (known !== undefined) return known;
  const dir = makeTempDir('refsem-cc-');
  try {
    writeFileSync(join(dir, 'plain.c'), '#include <stdio.h>\nint main(void) { puts("ok"); return 0; }\n');
    const ok = spawnSync(tc.cc[0]!, [...tc.cc.slice(1), ...tc.cflags, '-o', join(dir, 'plain'), join(dir, 'plain.c')], { encoding: 'utf8', timeout: 60_000 }).status === 0;
    flagsChecked.set(key, ok);
    return ok;
  } finally {
    removeTempDir(dir);
  }
}

/** The compiler's messages kept for a report: a file of garbage can make megabytes of them. */
const MAX_COMPILER_STDERR = 64 * 1024;

/**
 * GCC's notes that the ABI of vector arguments changed in an old release (-Wpsabi) say nothing
 * about the file; they pad a real error with lines that look like one.
 */
function withoutAbiNotes(stderr: string): string {
  const lines = stderr.split('\n');
  const abi = (l: string | undefined) => l !== undefined && /note: the ABI (?:for|of) .* changed in GCC/.test(l);
  const kept: string[] = [];
  let inNote = false;
  lines.forEach((l, i) => {
    // The note with its quoted source and caret lines, and the "In function" line that only introduced it.
    inNote = abi(l) || (inNote && /^\s+(?:\d+\s*)?\|/.test(l));
    if (!inNote && !(/: In function .*:$/.test(l) && abi(lines[i + 1]))) kept.push(l);
  });
  return kept.join('\n');
}

/** Runs the compiler on `args` under the compile time limit; an error message, or undefined. */
function runCompiler(tc: Toolchain, args: readonly string[], opts: ToolchainOptions): Promise<string | undefined> {
  return new Promise((done) => {
    // The compiler leads a process group of its own (a driver starts cc1, as and ld), and the group
    // is killed if refsem ends first: a compile of minutes must not run on after Ctrl-C or SIGTERM.
    const child = spawn(tc.cc[0]!, [...tc.cc.slice(1), ...args], { env: opts.env ?? process.env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const forget = child.pid === undefined ? () => {} : cleanupOnExit(killGroup);
    let stderr = '';
    let timedOut = false;
    const limit = opts.compileTimeoutMs ?? 120_000;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, limit);
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < MAX_COMPILER_STDERR) stderr += d.toString();
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      forget();
      done(`[${'C-TOOLCHAIN'}] the compiler could not be started: ${e.message}`);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      forget();
      if (timedOut) done(`[${'C-TOOLCHAIN'}] the compiler did not finish within ${limit} ms`);
      else if (code !== 0) done(`[${'C-TOOLCHAIN'}] compiler failed (exit ${code}):\n${withoutAbiNotes(stderr).split('\n').slice(0, 30).join('\n')}`);
      else done(undefined);
    });
  });
}

/** Compiles a translation unit; returns the binary path, or the compiler's message. */
async function compile(tc: Toolchain, dir: string, source: string, opts: ToolchainOptions): Promise<{ bin: string } | { error: string }> {
  const src = join(dir, 'refsem.c');
  const bin = join(dir, 'refsem.bin');
  writeFileSync(src, source);
  const error = await runCompiler(tc, [...compileFlags(tc, opts), '-o', bin, src], opts);
  return error === undefined ? { bin } : { error };
}

/**
 * A standalone C program (the instruction harnesses of src/codegen/fpir-harness.ts, the runs of
 * src/codegen/fpir-run.ts) compiled with the same compiler and flags as a batch, in a fresh
 * temporary directory that `done` removes. `header` (system headers and helpers) goes before the
 * source, precompiled like a SIMD batch's ([C-PCH]): programs that call intrinsics spend most of
 * their compile in immintrin.h.
 */
export async function compileStandalone(source: string, opts: ToolchainOptions = {}, header?: string): Promise<{ bin: string; dir: string; done(): void } | { error: string }> {
  const tc = detectToolchain(opts.env);
  const o = { ...opts, openmp: false };
  const path = header === undefined || opts.keepTemp ? undefined : await precompiled(tc, header, o);
  const dir = makeTempDir('refsem-cc-');
  const done = () => void (opts.keepTemp || removeTempDir(dir));
  const c = await compile(tc, dir, [path !== undefined ? `#include ${cString(path)}` : header ?? '', source].join('\n'), o);
  if ('error' in c) done();
  return 'error' in c ? c : { bin: c.bin, dir, done };
}

/** `C-PCH`: `text` as a header's path, precompiled with this compile's compiler and flags (or inline). */
function precompiled(tc: Toolchain, text: string, opts: ToolchainOptions): Promise<string | undefined> {
  const flags = compileFlags(tc, opts);
  return precompiledHeader(JSON.stringify([tc.cc, flags, tc.version, opts.env?.PATH ?? process.env.PATH]), text, async (src, out) =>
    (await runCompiler(tc, [...flags, '-x', 'c-header', '-o', out, src], opts)) === undefined);
}

interface Job {
  readonly program: number;
  readonly input: number;
  readonly line: string;
}

const INT64 = (v: Int) => toBig(v) >= -(2n ** 63n) && toBig(v) < 2n ** 63n;

/** Runs the binary on the jobs; a crash or timeout ends that job and the rest are run again. */
async function runJobs(bin: string, jobs: readonly Job[], opts: ToolchainOptions): Promise<Map<string, BinaryResult>> {
  const out = new Map<string, BinaryResult>();
  const memMb = opts.memoryLimitMb ?? 4096;
  const pointLimit = Math.floor((memMb * 1024 * 1024) / 24);
  let pending = [...jobs];
  while (pending.length > 0) {
    const { stdout, code, signal, timedOut, stderr } = await runOnce(bin, pending, memMb, pointLimit, opts);
    const parsed = parseRuns(stdout);
    for (const r of parsed.done) out.set(`${r.program}:${r.input}`, r);
    const next = pending.filter((j) => !out.has(`${j.program}:${j.input}`));
    if (next.length === pending.length && parsed.started === undefined) {
      // Nothing ran at all: the binary itself is broken.
      for (const j of next) out.set(`${j.program}:${j.input}`, { program: j.program, input: j.input, kind: 'crashed', message: describeExit(code, signal, stderr) });
      break;
    }
    if (parsed.started !== undefined && !out.has(parsed.started)) {
      const [program, input] = parsed.started.split(':').map(Number) as [number, number];
      const message = timedOut ? `no result within ${opts.runTimeoutMs ?? 20_000} ms` : describeExit(code, signal, stderr);
      out.set(parsed.started, { program, input, kind: timedOut ? 'timeout' : 'crashed', message });
    }
    pending = pending.filter((j) => !out.has(`${j.program}:${j.input}`));
  }
  return out;
}

function describeExit(code: number | null, signal: NodeJS.Signals | null, stderr: string): string {
  const what = signal ? `killed by ${signal}${signal === 'SIGSEGV' ? ' (a memory error; build with --checked to locate it)' : ''}` : `exit code ${code}`;
  return stderr.trim() ? `${what}: ${stderr.trim().split('\n')[0]}` : what;
}

function runOnce(bin: string, jobs: readonly Job[], memMb: number, pointLimit: number, opts: ToolchainOptions) {
  return new Promise<{ stdout: string; stderr: string; code: number | null; signal: NodeJS.Signals | null; timedOut: boolean }>((resolve) => {
    // The shell applies the address-space limit to the binary only (ulimit -v is in KiB). The
    // binary leads a process group of its own, so that at the limit every process it started goes
    // too; its answers come on descriptor 3, and its own standard output is not read.
    const child = spawn('/bin/sh', ['-c', `ulimit -v ${memMb * 1024} 2>/dev/null; exec "$0" "$1"`, bin, String(pointLimit)], {
      stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
      detached: true,
      // Passive waiting: spinning OpenMP threads on a busy machine cost more than they save.
      env: { OMP_WAIT_POLICY: 'passive', ...(opts.env ?? process.env) },
    });
    const proto = child.stdio[3] as Readable;
    const chunks: Buffer[] = [];
    let stderr = '';
    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const limit = (opts.runTimeoutMs ?? 20_000) * (opts.repeat ?? 1);
    // The limit is per run: it restarts at every `begin`.
    let timer = setTimeout(() => kill(), limit);
    const kill = () => {
      timedOut = true;
      killGroup();
    };
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      killGroup();
      resolve({ stdout: Buffer.concat(chunks).toString('utf8'), stderr, code: exit?.code ?? null, signal: exit?.signal ?? 'SIGKILL', timedOut });
    };
    proto.on('data', (d: Buffer) => {
      chunks.push(d);
      if (d.includes('begin ')) {
        clearTimeout(timer);
        timer = setTimeout(kill, limit);
      }
    });
    child.stderr!.on('data', (d: Buffer) => void (stderr += d.toString()));
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // A process the binary left behind may hold its pipes open: the answers are complete once
      // the binary has exited, so nothing waits for them to close beyond a moment.
      clearTimeout(timer);
      timer = setTimeout(finish, 500);
    });
    child.on('close', finish);
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(jobs.map((j) => j.line).join('\n') + '\n');
  });
}

function parseValue(tok: string): Value | undefined {
  if (tok === 'x') return undefined;
  if (tok === 'm') return E_MEM;
  if (tok === 'r') return E_RDOM;
  return intFromString(tok);
}

function parseRuns(stdout: string): { done: BinaryResult[]; started?: string } {
  const done: BinaryResult[] = [];
  let started: string | undefined;
  let cur: { program: number; input: number; status?: number; message?: string; overflow?: { op: string; a: Int; b: Int }; dims?: [Int, Int][]; window?: (Value | undefined)[]; ran?: bigint; bestNs?: number } | undefined;
  for (const line of stdout.split('\n')) {
    const sp = line.indexOf(' ');
    const head = sp < 0 ? line : line.slice(0, sp);
    const rest = sp < 0 ? '' : line.slice(sp + 1);
    if (head === 'begin') {
      const [p, i] = rest.split(' ').map(Number) as [number, number];
      cur = { program: p, input: i };
      started = `${p}:${i}`;
    } else if (!cur) continue;
    else if (head === 'status') cur.status = Number(rest);
    else if (head === 'message') cur.message = rest;
    else if (head === 'ran') cur.ran = BigInt(rest);
    else if (head === 'overflow') {
      const [op, a, b] = rest.split(' ');
      cur.overflow = { op: op!, a: intFromString(a!), b: intFromString(b!) };
    } else if (head === 'dims') {
      const ns = rest.split(' ').slice(1).map(intFromString);
      cur.dims = [];
      for (let k = 0; k + 1 < ns.length; k += 2) cur.dims.push([ns[k]!, ns[k + 1]!]);
    } else if (head === 'values') cur.window = rest.length === 0 ? [] : rest.split(' ').map(parseValue);
    else if (head === 'best_ns') cur.bestNs = Number(rest);
    else if (head === 'time_ns') {
      const status = statusName(cur.status ?? -1) ?? 'ok';
      const base = { program: cur.program, input: cur.input, kind: 'ran' as const, status, timeNs: Number(rest), ...(cur.bestNs !== undefined && cur.bestNs >= 0 ? { bestNs: cur.bestNs } : {}) };
      done.push({
        ...base,
        ...(cur.message !== undefined ? { message: cur.message } : {}),
        ...(cur.overflow ? { overflow: cur.overflow } : {}),
        ...(cur.dims && cur.window ? { output: { dims: cur.dims, window: cur.window } } : {}),
        ...(cur.ran !== undefined ? { ran: cur.ran } : {}),
      });
      cur = undefined;
    }
  }
  return { done, started };
}

/**
 * `compileAndRun`: emits every program, compiles them into one binary per job (translation units
 * compile in parallel, `jobs` defaults to the number of cores) and runs each program on each of
 * its inputs. One result per (program, input), in order. Inputs whose parameters do not fit in 64
 * bits end with the overflow status without running (the C entry takes int64 parameters).
 */
export async function compileAndRun(programs: readonly BatchItem[], opts: ToolchainOptions & { impl?: string; jobs?: number } = {}): Promise<BinaryResult[]> {
  const tc = detectToolchain(opts.env);
  const results = new Map<string, BinaryResult>();
  const jobs = Math.max(1, Math.min(opts.jobs ?? availableParallelism(), programs.length));
  const chunks: number[][] = Array.from({ length: jobs }, () => []);
  programs.forEach((_, k) => chunks[Math.floor((k * jobs) / programs.length)]!.push(k));
  await Promise.all(chunks.map((ks) => runChunk(tc, programs, ks, opts, results)));
  return programs.flatMap((p, k) => p.inputs.map((_, i) => results.get(`${k}:${i}`)!));
}

/** One translation unit for the programs `ks` (their driver indices are positions in `ks`). */
async function runChunk(tc: Toolchain, programs: readonly BatchItem[], ks: readonly number[], opts: ToolchainOptions & { impl?: string }, out: Map<string, BinaryResult>): Promise<void> {
  const pipes = ks.map((k) => {
    const p = programs[k]!;
    const name = p.emit?.name ?? p.t.output;
    const emitted = emitPipeline(p.t, { ...p.emit, name: opts.impl !== undefined ? name : `${name}_${k}` });
    opts.onEmitted?.(k, emitted);
    return emitted;
  });
  const jobs: Job[] = [];
  ks.forEach((k, local) => {
    const p = programs[k]!;
    p.inputs.forEach((z, i) => {
      const params = p.t.params.map((name) => z.params.get(name) ?? 0);
      const window = z.window.flatMap(([m, l]) => [m, l]);
      if (![...params, ...window].every(INT64)) {
        out.set(`${k}:${i}`, { program: k, input: i, kind: 'ran', status: 'overflow', message: 'an input does not fit in 64 bits', timeNs: 0 });
        return;
      }
      jobs.push({ program: local, input: i, line: `run ${local} ${i} ${opts.repeat ?? 1} ${params.length} ${params.join(' ')} ${z.window.length} ${window.join(' ')}` });
    });
  });
  // Input-major order: with repetitions for timing, load from other processes spreads evenly
  // over the programs instead of falling on whichever ran during a burst.
  jobs.sort((a, b) => a.input - b.input || a.program - b.program);
  const dir = makeTempDir('refsem-cc-');
  try {
    // Only the vector runtime (immintrin.h) is worth precompiling; the scalar one compiles as fast
    // as a precompiled header loads. A kept directory (for debugging) holds the whole source.
    const simd = pipes.some((p) => p.simd);
    const header = opts.keepTemp || !simd ? undefined : await precompiled(tc, batchHeader(simd), opts);
    const c = await compile(tc, dir, batchSource(pipes, opts.impl, header), opts);
    const global = (r: BinaryResult): BinaryResult => ({ ...r, program: ks[r.program]! });
    if ('error' in c) {
      for (const j of jobs) out.set(`${ks[j.program]}:${j.input}`, { program: ks[j.program]!, input: j.input, kind: 'compile-error', message: c.error });
    } else if (jobs.length > 0) {
      for (const [key, r] of await runJobs(c.bin, jobs, opts)) {
        const [local, input] = key.split(':').map(Number) as [number, number];
        out.set(`${ks[local]}:${input}`, global(r));
      }
    }
  } finally {
    if (!opts.keepTemp) removeTempDir(dir);
  }
}
