// `refsem fuzz --backend c|simd`: the emitted C (or SIMD) program of a scheduled, completed case
// agrees with the reference executor on the case's input (src/codegen hook). Exact integers meet
// fixed-width machine integers here: an overflow is a reported verdict, never a silent difference.
import { checkBackend, verdictsToCheck } from '../../codegen/index.js';
import { complete } from '../complete.js';
import type { Property } from '../property.js';
import { type SchedCase, type SchedGen, arbSchedGen, decodeSched, encodeSched, finalProgram, observeSched, schedCase, schedShape } from './sched-case.js';

export const backend: Property<SchedGen, SchedCase> = {
  name: 'backend',
  summary: 'the compiled backend (--backend c|simd) agrees with the reference executor on scheduled, completed programs',
  arbitrary: (env) => arbSchedGen(env),
  concretize: schedCase,
  check: () => ({ status: 'discard', why: 'the backend property runs asynchronously' }),
  async checkAsync(c, env) {
    if (c.trouble) return { status: 'discard', why: 'directive error' };
    const t = complete(finalProgram(c), env.engine);
    const vs = await checkBackend(t, undefined, [c.input], { backend: env.config.backend ?? 'c', maxSteps: env.config.maxSteps });
    return verdictsToCheck(vs);
  },
  encode: encodeSched,
  decode: decodeSched,
  shape: schedShape,
  observe: observeSched,
};
