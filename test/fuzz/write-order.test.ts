// The write-order property: reordered reduction steps are caught even where the final values
// coincide, and valid schedules that recompute points pass.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/fuzz/env.js';
import { evaluate } from '../../src/fuzz/check.js';
import { makeEnv } from '../../src/fuzz/make-env.js';
import { propertyNamed } from '../../src/fuzz/properties/index.js';
import { execTgt } from '../../src/target-semantics/exec.js';
import { parseTgt } from '../../src/target-semantics/parse.js';

const SWAP = join(__dirname, '..', '..', 'examples', 'directives', 'unsound-swap-reduction.mjs');
// max over (r, s) is order-insensitive in its final value, not in the values it passes through.
const MAX = 'pipeline f() {\n  func f(x) {\n    0;\n    rdom(r = (0, 3), s = (0, 2)) in (x) <- max(f(x), r + s);\n  }\n}\n';

async function verdicts(schedule: string, program = MAX) {
  const env = await makeEnv({ ...DEFAULT_CONFIG, directives: [SWAP] });
  const c = { program, schedule, input: { window: [['0', '2']] as [string, string][], params: {} } };
  const at = (p: string) => {
    const prop = propertyNamed(p);
    const r = evaluate(prop, prop.decode(c, env), env);
    return r.status === 'fail' ? r.verdict : r.status;
  };
  return { confluence: at('confluence'), writeOrder: at('write-order') };
}

describe('write-order property', () => {
  it('catches reduction loops exchanged where confluence sees equal final values', async () => {
    expect(await verdicts('swap-any f.s1.s\n')).toEqual({ confluence: 'pass', writeOrder: 'write-order' });
  });

  it('passes valid schedules, recomputation included', async () => {
    expect((await verdicts('split f.s1.x into xo, xi by 2\n')).writeOrder).toBe('pass');
    const blur = 'pipeline g() {\n  func f(x) = x * 2;\n  func g(x) = f(x) + f(x + 1);\n}\n';
    expect((await verdicts('split g.x into xo, xi by 3 tail shift\ncompute-at f at g.s0.xi\n', blur)).writeOrder).toBe('pass');
  });

  it('the executor reports every store, in order, only when asked', () => {
    const t = parseTgt('pipeline o(; x in (x.min, x.len)):\n{\n  allocate o(x in (x.min, x.len));\n  for o.s0.x in (x.min, x.len) do o[o.s0.x] <- o.s0.x * 10;\n  o[x.min] <- 7\n}', 't.tgt');
    const seen: string[] = [];
    const o = execTgt(t, { window: [[0, 2]], params: new Map() }, { onStore: (f, p, v) => seen.push(`${f}[${p.join(',')}]=${String(v)}`) });
    expect(o.kind).toBe('done');
    expect(seen).toEqual(['o[0]=0', 'o[1]=10', 'o[0]=7']);
  });
});
