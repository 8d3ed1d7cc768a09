// [C-CSE]: an expression that reads no memory is evaluated once per scope; a value computed in a
// closed block is computed again after it (where the same name may be bound anew); statement heads
// in comments and messages are cut short. Every build still agrees with the reference.
import { describe, expect, it } from 'vitest';
import { emitPipeline } from '../../src/codegen/emit-c.js';
import { agreeEverywhere, bad, input, tgt } from './support.js';

const SHADOW = tgt(`pipeline f(k; x in (x.min, x.len)):
{
  allocate f(x in (x.min, x.len));
  for f.s0.x in (x.min, x.len) do
    let a = f.s0.x * k + 1 in
    let b = (f.s0.x * k + 1) * 2 in
    f[f.s0.x] <- a * 3 + (a * 3) + b;
  for f.s1.x in (x.min, x.len) do
    let a = f.s1.x - k in
    f[f.s1.x] <- f[f.s1.x] + a * 3
}`);

describe('shared values [C-CSE]', () => {
  const c = emitPipeline(SHADOW, { simd: 'none' }).text;

  it('evaluates a repeated memory-free expression once in its scope', () => {
    // each loop is emitted twice, its proved and its checked iterations ([C-PROVED])
    expect(c).toContain('[C-PROVED]');
    expect(c.match(/rs_w?mul\(v_f_ds0_dx, v_k\)/g)).toHaveLength(2);
  });

  it('computes again what a closed block computed', () => {
    // per variant: once in the first loop (used twice), once in the second, where a is bound anew
    expect(c.match(/rs_w?mul\(v_a, INT64_C\(3\)\)/g)).toHaveLength(4);
  });

  it('agrees with the reference in every build', async () => {
    expect(bad(await agreeEverywhere(SHADOW, [input([[-3, 9]], { k: 5 }), input([[0, 4]], { k: -2 })]))).toEqual([]);
  });

  it('cuts long statement heads in comments and messages', () => {
    const long = Array.from({ length: 60 }, (_, i) => `x.min + ${i}`).reduce((a, b) => `min(${a}, ${b})`);
    const t = tgt(`pipeline f(; x in (x.min, x.len)):
{
  allocate f(x in (${long}, x.len));
  for f.s0.x in (x.min, x.len) do f[f.s0.x] <- 1
}`);
    const lines = emitPipeline(t, { simd: 'none' }).text.split('\n');
    expect(Math.max(...lines.filter((l) => l.includes('[C-ALLOC]')).map((l) => l.length))).toBeLessThan(260);
  });
});
