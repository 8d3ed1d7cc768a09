// `refsem fpir EXPR --target avx2|avx512|neon [--json]`: lifts integer code to FPIR and selects
// instructions for the target with the verified lowering rules (spec/fpir.md, [FPIR-LIFT],
// [FPIR-LOWER]), showing the lifted FPIR, the rules applied and the selected instructions.
import type { Register } from './index.js';
import { UserError, argLoc } from '../../diag.js';
import { TARGETS, type Target } from '../../fpir/intrinsics.js';
import { lift } from '../../fpir/lift.js';
import { LANES } from '../../fpir/lower-rules.js';
import { parseFpir } from '../../fpir/parse.js';
import { printFpir } from '../../fpir/print.js';
import { selectInstructions, summarize } from '../../fpir/select.js';
import { showSelection } from '../../fpir/show.js';
import { readSource } from '../../node/source.js';

export function targetNamed(name: string): Target {
  const t = TARGETS.find((x) => x === name);
  if (!t) throw new UserError(`unknown target '${name}'`, argLoc('--target', name), `the targets are: ${TARGETS.join(', ')}`);
  return t;
}

export const register: Register = (program, io) => {
  program
    .command('fpir')
    .description('lift an integer expression to FPIR and select instructions for a target (spec/fpir.md)')
    .argument('<expr>', "the expression, e.g. 'u8(min(u16(x_u8) + u16(y_u8), 255))', or @FILE to read it from a file")
    .requiredOption('--target <target>', `the instruction set: ${TARGETS.join(', ')}`)
    .option('--json', 'print one JSON object')
    .action((text: string, o: { target: string; json?: boolean }) => {
      const target = targetNamed(o.target);
      const src = text.startsWith('@') ? readSource(text.slice(1)) : { text, file: '<expr>' };
      const lifted = lift(parseFpir(src.text, src.file));
      const sel = selectInstructions(lifted.expr, target);
      const sum = summarize(sel);
      if (o.json) {
        io.out(`${JSON.stringify({ lifted: printFpir(lifted.expr), lifting: lifted.applied.map((a) => a.rule), target, lanes: LANES[target], lowering: sum.rules, intrinsics: sum.intrinsics, portable: sum.portable, code: showSelection(sel) })}\n`);
        return;
      }
      io.out(`lifted:   ${printFpir(lifted.expr)}\n`);
      io.out(`lifting:  ${lifted.applied.length === 0 ? '(no rule applied)' : lifted.applied.map((a) => a.rule).join(', ')}\n`);
      io.out(`target:   ${target}, ${LANES[target]} lanes per vector\n`);
      io.out(`lowering: ${sum.rules.length === 0 ? '(no rule applied)' : sum.rules.join(', ')}\n`);
      for (const l of showSelection(sel)) io.out(`  ${l}\n`);
    });
};
