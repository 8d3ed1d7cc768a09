// [HALIDE-NARROW] (spec/halide.md): the bridge's narrow-typed programs, used only to time Halide as
// a user would write it: each func in the narrowest type its range allows, Int(32) arithmetic, the
// output widened back; and on an app of the suite such a program realizes the Int(64) program's
// values.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { halideProgram, narrowType } from '../../src/halide/emit.js';
import { halideAvailable, runHalide } from '../../src/halide/run.js';
import { readBridged } from '../../src/halide/load.js';
import { funcRanges } from '../../src/codegen/ranges.js';
import { complete } from '../../src/pipeline.js';
import { BUILTIN_ENGINES } from '../../src/bounds/engine.js';
import { constInterval } from '../../src/expr/interval.js';
import { C } from '../../src/expr/symbolic.js';
import { int } from '../../src/expr/value.js';

const ex = (f: string) => join(__dirname, '..', '..', 'examples', f);

describe('[HALIDE-NARROW] narrow types for timing', () => {
  it('takes the narrowest type that holds the range', () => {
    expect(narrowType(constInterval(0, 255))).toBe('UInt(8)');
    expect(narrowType(constInterval(-3, 100))).toBe('Int(8)');
    expect(narrowType(constInterval(0, 4080))).toBe('UInt(16)');
    expect(narrowType(constInterval(-255, 255))).toBe('Int(16)');
    expect(narrowType(constInterval(0, 2 ** 25))).toBe('Int(32)');
    expect(narrowType(constInterval(0, 2 ** 31))).toBe('Int(64)');
    expect(narrowType({ lo: C(0), hi: null })).toBe('Int(64)');
    expect(narrowType(undefined)).toBe('Int(32)');
  });

  it.runIf(halideAvailable())('states an app in those types, and it realizes the Int(64) values', async () => {
    const { alg, steps } = await readBridged({ prog: ex('apps/unsharp.alg'), schedule: ex('apps/unsharp.halide'), directives: [] });
    const t = complete(steps[steps.length - 1]!.after, BUILTIN_ENGINES.beta1!);
    const ranges = funcRanges(t);
    const types = new Map(alg.funcs.map((f) => [f.name, narrowType(ranges.get(f.name))]));
    expect(types.get('blur_x')).toBe('UInt(16)');
    const z = { window: [[int(-3), int(21)], [int(5), int(11)]] as [ReturnType<typeof int>, ReturnType<typeof int>][], params: new Map() };
    const narrow = halideProgram(alg, steps, z, { types });
    expect(narrow).toContain('hl.cast(hl.UInt(16), ');
    expect(narrow).toMatch(/OUT\[.*\] = hl\.i64\(F_/);
    const [a, b] = await Promise.all([runHalide(halideProgram(alg, steps, z), 120_000), runHalide(narrow, 120_000)]);
    expect(a.kind).toBe('values');
    expect(b).toEqual(a);
  });
});
