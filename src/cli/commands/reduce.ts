// `refsem reduce PROG --schedule S --window … [--property P]`: shrinks a failing case of one's own
// to a small one that fails the same way (docs/fuzzing.md, "Reducing a case").
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Register } from './index.js';
import { readSource } from '../../node/source.js';
import { readScheduled } from '../../node/program.js';
import { checkInput } from '../../alg-semantics/input.js';
import { DEFAULT_CONFIG } from '../../fuzz/env.js';
import { makeEnv } from '../../fuzz/make-env.js';
import { propertyNamed } from '../../fuzz/properties/index.js';
import { inputText } from '../../fuzz/properties/text.js';
import { reduceCase } from '../../fuzz/reduce.js';
import { CLI_LOC, UserError } from '../../diag.js';
import { engineOption, inputOptions, scheduleOf, scheduleOptions, windowOf } from '../common-options.js';
import { parseParams } from '../options.js';

/** The properties whose cases are a program, a schedule and an input. */
const REDUCIBLE = ['confluence', 'memory-safety', 'bounds-quality', 'race-free', 'lemmas', 'evaluators-tgt', 'halide'];

interface Opts {
  schedule?: string;
  directive: string[];
  window: string;
  param: string[];
  engine: string;
  property: string;
  out: string;
  json?: boolean;
}

export const register: Register = (program, io) => {
  const cmd = program
    .command('reduce')
    .description('shrink a failing case (program, schedule, input) to a small one that fails the same way')
    .argument('<prog>', 'the algorithm source file');
  scheduleOptions(cmd);
  inputOptions(cmd);
  engineOption(cmd)
    .option('--property <name>', `the property that fails: ${REDUCIBLE.join(', ')}`, 'confluence')
    .option('--out <dir>', 'directory for reduced.alg and reduced.sched', 'reduce-out')
    .option('--json', 'print the result as one JSON object')
    .action(async (prog: string, o: Opts) => {
      if (!REDUCIBLE.includes(o.property)) {
        propertyNamed(o.property); // an unknown name gets the list of properties
        throw new UserError(`property '${o.property}' has no program, schedule and input to reduce`, CLI_LOC, `reduce works with ${REDUCIBLE.join(', ')}`);
      }
      // Read through the usual loaders first, so that mistakes in the files are reported where they are.
      const { alg } = await readScheduled({ prog, ...scheduleOf(o) });
      const input = { window: windowOf(o.window), params: parseParams(o.param) };
      if (alg) checkInput(alg, input);
      const env = await makeEnv({ ...DEFAULT_CONFIG, engine: o.engine, directives: o.directive });
      const text = {
        program: readSource(prog).text,
        ...(o.schedule !== undefined ? { schedule: readSource(o.schedule).text } : {}),
        input: inputText(input),
      };
      // Progress on a terminal only: rewritten in place, as a campaign's.
      const r = await reduceCase(propertyNamed(o.property), text, env, undefined, (steps, tried) => io.isTTY && io.err(`\r\x1b[Kreduce: ${steps} steps kept of ${tried} tried`));
      if (io.isTTY) io.err('\n');
      mkdirSync(o.out, { recursive: true });
      writeFileSync(join(o.out, 'reduced.alg'), r.text.program ?? '');
      writeFileSync(join(o.out, 'reduced.sched'), r.text.schedule ? `${r.text.schedule}\n` : '');
      const window = r.text.input!.window.map(([m, l]) => `${m}+${l}`).join(',');
      const params = Object.entries(r.text.input!.params).map(([k, v]) => ` --param ${k}=${v}`).join('');
      if (o.json) {
        io.out(`${JSON.stringify({ property: o.property, verdict: r.verdict, steps: r.steps, tried: r.tried, window, params: r.text.input!.params, program: r.text.program, schedule: r.text.schedule ?? '', original: { ...r.original, points: r.original.points.toString() }, reduced: { ...r.reduced, points: r.reduced.points.toString() } })}\n`);
        return;
      }
      io.out([
        `${o.property} fails with ${r.verdict}; reduced in ${r.steps} steps (${r.tried} tried):`,
        `  program ${r.original.programChars} → ${r.reduced.programChars} characters, schedule ${r.original.scheduleCalls} → ${r.reduced.scheduleCalls} calls, window ${r.original.points} → ${r.reduced.points} points`,
        'program:', (r.text.program ?? '').trimEnd(),
        'schedule:', (r.text.schedule ?? '').trimEnd(),
        `input: --window=${window}${params}`,
        `wrote ${join(o.out, 'reduced.alg')} and ${join(o.out, 'reduced.sched')}; run: refsem exec ${join(o.out, 'reduced.alg')} --schedule ${join(o.out, 'reduced.sched')} --window=${window}${params} --engine ${o.engine} --compare`,
        '',
      ].join('\n'));
    });
};
