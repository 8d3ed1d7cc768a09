// Rendering outcomes: the JSON contract of docs/architecture.md and the one-line stuck messages.
import { describe, expect, it } from 'vitest';
import { E_MEM } from '../../src/expr/value.js';
import { outcomeJson, showOutcome } from '../../src/target-semantics/display.js';
import { execTgt } from '../../src/target-semantics/exec.js';
import { input, tgt } from './support.js';

describe('outcome rendering', () => {
  it('prints done outcomes as {func, window, values} with errors as strings', () => {
    const p = tgt('pipeline f(; x in (x.min, x.len)): { allocate f(x in (x.min, x.len)); f[x.min] <- 9007199254740993 }');
    const o = execTgt(p, input([[-1, 2]]));
    expect(outcomeJson(o, 'f', [[-1, 2]])).toEqual({ func: 'f', window: [[-1, 2]], values: ['9007199254740993', 'err:mem'] });
    // only the requested window, and a window the allocation does not cover is an outcome
    expect(outcomeJson(o, 'f', [[0, 1]])).toEqual({ func: 'f', window: [[0, 1]], values: ['err:mem'] });
    expect(outcomeJson(o, 'f', [[0, 2]])).toMatchObject({ func: 'f', window: [[0, 2]], outcome: { kind: 'window-not-covered' } });
    expect(o.kind === 'done' && o.output.data[1]).toBe(E_MEM);
  });

  it('prints stuck outcomes with their kind, message and steps', () => {
    const o = execTgt(tgt('pipeline f(): for i in (0, -3) do nop'), input([]));
    expect(outcomeJson(o, 'f', [])).toEqual({
      func: 'f',
      window: [],
      outcome: { kind: 'rdom-failure', message: 'rdom failure: i ranges over (0, -3), a negative extent at test.tgt:1:15 in `for i in (0, -3) do …`', steps: 1 },
    });
    expect(showOutcome(o)).toBe('stuck after 1 step: rdom failure: i ranges over (0, -3), a negative extent at test.tgt:1:15 in `for i in (0, -3) do …`');
  });
});
