// `refsem new-directive NAME [-o FILE] [--force]`: writes a commented directive module that
// already passes `refsem check-directive`, as the starting point of a user's own directive
// (spec/schedule.md, "Writing a directive").
import { existsSync, writeFileSync } from 'node:fs';
import type { Register } from './index.js';
import { UserError, CLI_LOC } from '../../diag.js';
import { BUILTINS } from '../../schedule/builtins.js';

/** The module text for a directive named `name`: split by a factor, then unroll the inner loop. */
export function directiveTemplate(name: string): string {
  return `// A user directive: \`${name} LOOP by FACTOR\` splits LOOP by FACTOR (guard tail) and unrolls the
// inner loop when FACTOR is a constant of at most 8. Written by \`refsem new-directive\`; check it
// with \`refsem check-directive ${name}.mjs\` after every change, and use it with
// \`refsem schedule PROG --schedule S --directive ${name}.mjs\`.
//
// A directive module imports nothing: everything it needs arrives as \`api\` (spec/schedule.md,
// "Writing a directive"). Programs are immutable trees; a directive returns a new program.
export default (api) => {
  const MAX_UNROLL = 8;

  // The rewrite, as built-in steps. \`ctx.run\` applies a built-in directive with its own
  // validity checks, so a step that does not apply is rejected with the built-in's reason.
  function steps(t, a, ctx) {
    const loop = api.resolveLoop(t, a.loop); // a LoopInfo: { stmt, path, name: { func, stage, spec, v } }
    const v = loop.name.v;
    // Fresh names that no loop of this func uses yet.
    const [outer, inner] = [api.inventName(t, loop.name, \`\${v}o\`), api.inventName(t, loop.name, \`\${v}i\`)];
    const split = ctx.run(t, 'split', { loop: loop.stmt.var, names: [outer, inner], factor: a.factor, tail: 'guard' });
    const k = api.constValue(a.factor);
    if (k === undefined || k > MAX_UNROLL) return split;
    const prefix = loop.stmt.var.slice(0, loop.stmt.var.lastIndexOf('.') + 1);
    return ctx.run(split, 'unroll', { loop: \`\${prefix}\${inner}\` });
  }

  return api.defineDirective({
    name: '${name}',
    // The phase decides where the directive may stand in a schedule:
    // specialization → loops → compute → storage → bounds.
    phase: 'loops',
    summary: 'split a loop by a factor and unroll the inner loop when the factor is small',
    // Syntax: \`${name} LOOP by FACTOR\`. Parameter types: loop, loops, func, expr, exprs, name, names, …
    params: [
      { name: 'loop', type: 'loop' },
      { name: 'factor', type: 'expr', key: 'by' },
    ],
    // Throw through ctx.reject(rule, message, hint) when the directive does not apply; here the
    // steps themselves decide, so validation runs them and discards the result.
    validate(t, a, ctx) {
      steps(t, a, ctx);
    },
    apply: steps,
    // What must hold for the rewrite to be sound (\`refsem schedule … --prove\`, spec/effects.md):
    // a list of conditions on t such as { k: 'parallel', t, loop: PATH } or { k: 'reorder', t,
    // loop: PATH }. The obligations of steps run through ctx.run are gathered for you, so this
    // directive adds none. Leave the field out and --prove reads a changed traversal or two
    // exchanged loops off the programs before and after.
    obligations(t, a, ctx, after) {
      return [];
    },
    // Random valid arguments for the fuzzer (\`check-directive\`, \`fuzz --directive\`), or
    // undefined when the directive applies nowhere in t.
    generate(t, rng, ctx) {
      const cands = api.loopsOf(t).flatMap((l) => [2, 3, 4, 16].map((f) => ({ loop: l.stmt.var, factor: api.cst(f) })));
      return api.firstValid(rng, cands, (c) => ctx.valid(t, c));
    },
  });
};
`;
}

export const register: Register = (program, io) => {
  program
    .command('new-directive')
    .description('write a commented template of a user directive module that passes check-directive')
    .argument('<name>', 'the directive name, e.g. split-unroll')
    .option('-o, --out <file>', 'where to write the module (default: NAME.mjs)')
    .option('--force', 'overwrite an existing file')
    .action((name: string, o: { out?: string; force?: boolean }) => {
      if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) {
        throw new UserError(`'${name}' is not a directive name`, CLI_LOC, 'use lower-case words joined by dashes, e.g. split-unroll');
      }
      if (BUILTINS.some((d) => d.name === name)) throw new UserError(`'${name}' is a built-in directive`, CLI_LOC, 'choose another name');
      const out = o.out ?? `${name}.mjs`;
      if (existsSync(out) && !o.force) throw new UserError(`'${out}' exists`, CLI_LOC, 'pass --force to overwrite it, or -o to write elsewhere');
      writeFileSync(out, directiveTemplate(name));
      io.out(`wrote ${out}: check it with refsem check-directive ${out}\n`);
    });
};
