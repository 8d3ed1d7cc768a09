// [C-VARIANT]: a fault planted in code only the checked iterations call went unnoticed by
// `validate`, and nothing said which variant of the emitted loop nest had run.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { neverRan, ranVariants, variantNames } from '../../src/codegen/variants.js';
import { emitC } from '../../src/codegen/emit-c.js';
import { parseTgt } from '../../src/target-semantics/parse.js';
import { runCli } from '../support/cli.js';
import { scratch } from '../support/files.js';

const SCALE = `pipeline f(k; x in (x.min, x.len)):
{
  allocate f(x in (x.min, x.len));
  for f.s0.x in (x.min, x.len) do f[f.s0.x] <- (f.s0.x * k) / 3
}
`;

describe('[C-VARIANT] variants that ran', () => {
  it('names are read back from the markers of the emitted C, one per side of each choice', () => {
    const names = variantNames(emitC(parseTgt(SCALE, 's.tgt'), { simd: 'none' }));
    expect(names).toEqual(['f.s0.x proved', 'f.s0.x checked']);
    expect(ranVariants(0b01n, names)).toEqual(['f.s0.x proved']);
    expect(neverRan([0b01n, 0b01n], names)).toEqual(['f.s0.x checked']);
    expect(neverRan([0b01n, 0b10n], names)).toEqual([]);
  });

  it('validate says per input which variant ran and which ran on no input, also for --impl of the emitted code', async () => {
    const { file, dir } = scratch('refsem-variants-');
    const tgt = file('scale.tgt', SCALE);
    const r = await runCli(['validate', tgt, '--inputs', '2', '--window', '0+4', '--param', 'k=4611686018427387904']);
    expect(r.stdout).toContain('[ran: f.s0.x checked]');
    expect(r.stdout).toContain('[ran: f.s0.x proved]');
    expect(r.stdout).toContain('variants: each of the 2 ran on some input');
    const c = join(dir, 'scale.c');
    writeFileSync(c, emitC(parseTgt(SCALE, 's.tgt'), { simd: 'none' }));
    const impl = await runCli(['validate', tgt, '--impl', c, '--inputs', '2']);
    expect(impl.stdout).toContain('variants that ran on no input (their code was not validated): f.s0.x checked');
    expect(impl.code).toBe(0);
  });
});
