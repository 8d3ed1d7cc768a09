// `refsem validate PROG [--schedule S] --backend c|simd [--inputs N] [--impl their.c]`: runs the
// compiled program and the reference on the same inputs and prints a verdict per input
// (spec/codegen.md, "Verdicts"). Exit 1 when any verdict is a failure.
import { resolve } from 'node:path';
import { UserError, CLI_LOC, InternalFault, argLoc } from '../../diag.js';
import { detectToolchain, toolchainCompilesC } from '../../codegen/toolchain.js';
import { generateInputs, showInput } from '../../codegen/inputs.js';
import { readCompleted } from '../../node/program.js';
import { type Backend, type BackendVerdict, showBackendVerdict, validateBackend } from '../../codegen/validate.js';
import { emitPipeline } from '../../codegen/emit-c.js';
import { neverRan, ranVariants, variantNames } from '../../codegen/variants.js';
import { widestHostIsa } from '../../codegen/cpu.js';
import { CheckFailed } from '../main.js';
import { bindInput } from '../../target-semantics/check.js';
import { readSource } from '../../node/source.js';
import { engineOption, scheduleOf, scheduleOptions } from '../common-options.js';
import { collect, parseIntOption, parseParams, parseWindow } from '../options.js';
import { COMPLETING, parseFaults, parseSimd } from './codegen.js';
import type { Register } from './index.js';
import type { IO } from '../../node/io.js';
import { checkInput } from '../../alg-semantics/input.js';
import { lower } from '../../lowering/lower.js';
import { readBridged } from '../../halide/load.js';
import { type HalideVerdict, requireHalide, showHalideVerdict, validateHalide } from '../../halide/run.js';

/** Each input is one run of the compiled binary and of the reference: more is not a validation but a campaign. */
const MAX_INPUTS = 10_000n;

interface Opts {
  schedule?: string;
  directive: string[];
  engine: string;
  backend: string;
  inputs: string;
  seed: string;
  window?: string;
  param: string[];
  impl?: string;
  checked?: boolean;
  simd: string;
  fault: string[];
  json?: boolean;
}

/**
 * `--backend halide`: the same inputs given to the real Halide through the bridge (spec/halide.md).
 * A case the bridge cannot state, or Halide refuses, is reported and counted, not failed; values
 * that differ and crashes fail.
 */
async function validateWithHalide(prog: string, o: Opts, io: IO): Promise<void> {
  requireHalide();
  const { alg, steps } = await readBridged({ prog, ...scheduleOf(o) });
  const t = steps.length > 0 ? steps[steps.length - 1]!.after : lower(alg);
  const n = Number(parseIntOption('--inputs', o.inputs, 1n, MAX_INPUTS));
  const first = o.window === undefined ? undefined : { window: parseWindow(o.window), params: parseParams(o.param) };
  if (first) checkInput(alg, first);
  const inputs = generateInputs(t, n, Number(parseIntOption('--seed', o.seed)), first);
  const verdicts: HalideVerdict[] = [];
  for (const z of inputs) verdicts.push(await validateHalide(alg, steps, z));
  if (o.json) io.out(`${JSON.stringify({ backend: 'halide', verdicts: verdicts.map((v, i) => ({ input: showInput(inputs[i]!), verdict: v.kind, ...v })) })}\n`);
  else verdicts.forEach((v, i) => io.out(`input ${i + 1} (${showInput(inputs[i]!)}): ${showHalideVerdict(v)}\n`));
  const bad = verdicts.filter((v) => v.kind === 'differs' || v.kind === 'crash').length;
  if (!o.json) io.out(bad === 0 ? `ok: ${verdicts.length} inputs${verdicts.some((v) => v.kind.startsWith('rejected') || v.kind === 'known_halide_bug') ? ' (some not run: see above)' : ''}\n` : `FAILED: ${bad} of ${verdicts.length} inputs\n`);
  if (bad > 0) throw new CheckFailed();
}

export const register: Register = (program, io) => {
  const cmd = program
    .command('validate')
    .description('compile a scheduled, completed program to C and compare the binary with the reference')
    .argument('<prog>', 'algorithm file, or a target program (.tgt); holes are filled by the bounds engine');
  engineOption(scheduleOptions(cmd), COMPLETING)
    .option('--backend <c|simd|halide>', 'scalar C, C with vector code for vectorize loops, or the real Halide 14 (python3-halide)', 'c')
    .option('--inputs <N>', 'number of inputs to compare on', '8')
    .option('--seed <N>', 'seed for the generated inputs', '1')
    .option('--window <MIN+LEN,...>', 'the first input\'s window (the rest are generated)')
    .option('--param <NAME=INT>', 'the first input\'s parameters (repeatable)', collect, [])
    .option('--impl <file.c>', 'validate your own C implementation of the ABI instead of the emitted code')
    .option('--checked', 'compile with -DREFSEM_CHECKED: out-of-bounds accesses are reported')
    .option('--simd <mode>', 'with --backend simd: host (the widest vector code this CPU runs), auto (every instruction set behind the run-time dispatch, of which this CPU runs one), avx2, avx512 or generic', 'host')
    .option('--fault <name>', 'switch on a planted fault (repeatable)', collect, [])
    .option('--json', 'print one JSON object with the verdicts')
    .action(async (prog: string, o: Opts) => {
      if (o.backend === 'halide') return validateWithHalide(prog, o, io);
      if (o.backend !== 'c' && o.backend !== 'simd') throw new UserError(`invalid --backend '${o.backend}'`, argLoc('--backend', o.backend), 'use c, simd or halide');
      // [C-DISPATCH]: a binary validated here runs one instruction set; by default only that one is compiled.
      const simd = o.simd === 'host' ? widestHostIsa() : parseSimd(o.simd);
      if (simd === 'none') throw new UserError('--simd none is the c backend', argLoc('--simd', 'none'), 'use --backend c');
      const { t, note } = await readCompleted({ prog, ...scheduleOf(o), engine: o.engine });
      if (note !== undefined) io.err(`note: ${note}\n`);
      const n = Number(parseIntOption('--inputs', o.inputs, 1n, MAX_INPUTS));
      const seed = Number(parseIntOption('--seed', o.seed));
      if (o.window === undefined && o.param.length > 0) throw new UserError('--param needs --window: they make up the first input together', CLI_LOC, 'add --window MIN+LEN,… for the first input');
      const first = o.window === undefined ? undefined : { window: parseWindow(o.window), params: parseParams(o.param) };
      if (first) bindInput(t, first); // the user's own input must fit the program: wrong dimensions or parameters are bad input
      const implText = o.impl !== undefined ? readSource(o.impl).text : undefined; // a missing implementation file is bad input, not a compile failure
      const inputs = generateInputs(t, n, seed, first);
      let emitted: string | undefined;
      const verdicts = await validateBackend(t, inputs, {
        onEmitted: (_, p) => (emitted = p.text),
        backend: o.backend as Backend,
        simd,
        faults: parseFaults(o.fault),
        ...(o.checked ? { checked: true } : {}),
        ...(o.impl !== undefined ? { impl: resolve(o.impl) } : {}),
      });
      // A program that does not compile fails every input the same way: one message, never a
      // counterexample. The user's file, or settings under which no C compiles, are bad input;
      // refsem's own C failing where plain C compiles is refsem's fault.
      const compileError = verdicts.every((v) => v.kind === 'binary-failed' && v.binary === 'compile-error') ? verdicts[0] : undefined;
      if (compileError && compileError.kind === 'binary-failed') {
        if (o.impl === undefined && toolchainCompilesC(detectToolchain())) {
          throw new InternalFault(`refsem's generated C does not compile, though the toolchain compiles plain C with the same $CC and $CFLAGS: ${compileError.message.replace(/^\[C-TOOLCHAIN\] /, '')}\n  please report it with the command line and the compiler's version (${detectToolchain().version})`);
        }
        throw new UserError(
          `${o.impl !== undefined ? `the implementation '${o.impl}'` : 'the generated code'} does not compile: ${compileError.message.replace(/^\[C-TOOLCHAIN\] /, '')}`,
          o.impl !== undefined ? { file: o.impl, line: 1, col: 1 } : CLI_LOC,
          o.impl !== undefined ? 'fix the file; it is compiled after refsem\'s runtime, which it may include again (its definitions are guarded)' : 'check $CC and $CFLAGS: refsem adds no warning flags of its own',
        );
      }
      // [C-VARIANT]: the variants each input ran, named from the C that was compiled.
      const names = variantNames(implText ?? emitted ?? emitPipeline(t, { simd: o.backend === 'c' ? 'none' : simd, faults: parseFaults(o.fault) }).text);
      const ranOn = (v: BackendVerdict) => (v.ran === undefined ? undefined : ranVariants(v.ran, names));
      const idle = names.length > 0 ? neverRan(verdicts.flatMap((v) => (v.ran === undefined ? [] : [v.ran])), names) : [];
      if (o.json) {
        const shown = verdicts.map((v, i) => {
          const { ran: _mask, ...rest } = v;
          const ran = ranOn(v);
          return { input: showInput(inputs[i]!), ...rest, ...(ran && names.length > 0 ? { ran } : {}) };
        });
        io.out(JSON.stringify({ backend: o.backend, verdicts: shown, ...(names.length > 0 ? { variants: names.filter(Boolean), never_ran: idle } : {}) }, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)) + '\n');
      } else {
        verdicts.forEach((v, i) => {
          const ran = ranOn(v);
          io.out(`input ${i + 1} (${showInput(inputs[i]!)}): ${showBackendVerdict(v)}${ran && names.length > 0 ? ` [ran: ${ran.join(', ') || 'no marked variant'}]` : ''}\n`);
        });
        if (names.length > 0) io.out(idle.length === 0 ? `variants: each of the ${names.filter(Boolean).length} ran on some input\n` : `variants that ran on no input (their code was not validated): ${idle.join(', ')}\n`);
      }
      const bad = verdicts.filter((v) => !v.ok).length;
      const unjudged = verdicts.filter((v) => (v.kind === 'equal' && v.compared === 0) || v.kind === 'inconclusive').length;
      if (!o.json) io.out(bad === 0 ? `ok: ${verdicts.length} inputs${unjudged > 0 ? ` (${unjudged} compared no value: see above)` : ''}\n` : `FAILED: ${bad} of ${verdicts.length} inputs\n`);
      if (bad > 0) throw new CheckFailed();
    });
};
