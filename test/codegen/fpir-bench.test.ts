// FPIR-BENCH: a kernel runs as refsem's selection and as plain C, both equal to the interpreter;
// plain C refuses what it cannot express.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchKernels, geomean, kernelsIn } from '../../src/codegen/fpir-bench.js';
import { hostIsas } from '../../src/codegen/cpu.js';
import { emitPortable } from '../../src/fpir/emit-portable.js';
import { parseFpir } from '../../src/fpir/parse.js';

describe('FPIR-BENCH', () => {
  it('plain C keeps narrow types and refuses instructions and variable shifts', () => {
    expect(emitPortable(parseFpir('u8(min(u16(a_u8) + u16(b_u8), 255))'), 'k', 32).text).toContain('(uint16_t)');
    expect(() => emitPortable(parseFpir('saturating_add(a_u8, b_u8)'), 'k', 32)).toThrow(/FPIR instruction/);
    expect(() => emitPortable(parseFpir('a_u8 << b_u8'), 'k', 32)).toThrow(/shift/);
    expect(geomean([2, 0.5])).toBeCloseTo(1);
  });
  it.runIf(hostIsas().has('avx2'))('runs a kernel both ways, equal to the interpreter', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'refsem-fpir-bench-'));
    writeFileSync(join(dir, 'sat.fpir'), 'u8(min(u16(a_u8) + u16(b_u8), 255))\n');
    const [r] = await benchKernels(kernelsIn(dir), { runs: 1, repeat: 2, lanes: 1024 });
    expect(r).toMatchObject({ kernel: 'sat', equal: true, intrinsics: ['_mm256_adds_epu8'] });
    expect(r!.speedup).toBeGreaterThan(0);
  }, 60_000);
});
