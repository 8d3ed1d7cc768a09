// Plain C for integer code (spec/fpir.md, [FPIR-BENCH]): the portable program as a programmer
// would write it, one loop over the lanes with C's own narrow types, for the system compiler to
// auto-vectorize (the seed's LLVM baseline, §5). Only what plain integer code uses is accepted:
// constants, variables, casts, primitive operations and selects. Arithmetic is done in an
// unsigned type of at least 32 bits and converted back, which wraps as FPIR does without C's
// signed-overflow undefined behaviour; shifts need a constant amount below the width, and
// division and remainder a positive constant on unsigned operands, where C and FPIR agree.
import { UserError } from '../diag.js';
import { type FExpr, varsOf } from './ast.js';
import { cScalar } from './emit-program.js';
import type { EmittedFunction } from './emit-program.js';

const wide = (bits: number) => (bits > 32 ? 'uint64_t' : 'uint32_t');
const bad = (e: FExpr, why: string): never => {
  throw new UserError(`[FPIR-BENCH] plain C cannot express this: ${why}`, e.loc, 'write the kernel with constant shift amounts and unsigned division by constants');
};

function cExpr(e: FExpr, input: (name: string) => string): string {
  const go = (x: FExpr) => cExpr(x, input);
  const t = cScalar(e.type);
  switch (e.k) {
    case 'var':
      return input(e.name);
    case 'const':
      return `((${t})${e.type.bits === 64 ? (e.type.signed ? `INT64_C(${e.value})` : `UINT64_C(${e.value})`) : String(e.value)})`;
    case 'cast':
      return `((${t})${go(e.arg)})`;
    case 'select':
      return `(${go(e.args[0])} ? ${go(e.args[1])} : ${go(e.args[2])})`;
    case 'fp':
      return bad(e, `${e.op} is an FPIR instruction, not plain integer code`);
    case 'prim': {
      const [a, b] = [go(e.args[0]), go(e.args[1])];
      const w = wide(e.args[0].type.bits);
      const amount = (): bigint => {
        const c = e.args[1];
        if (c.k !== 'const' || c.value < 0n || c.value >= BigInt(e.type.bits)) return bad(e, 'a shift by a non-constant or out-of-range amount');
        return c.value;
      };
      switch (e.op) {
        case '+':
        case '-':
        case '*':
        case '&':
        case '|':
        case '^':
          return `((${t})((${w})${a} ${e.op} (${w})${b}))`;
        case '<<':
          return `((${t})((${w})${a} << ${amount()}))`;
        case '>>':
          return `((${t})(${a} >> ${amount()}))`;
        case '/':
        case '%':
          if (e.type.signed || e.args[1].k !== 'const' || e.args[1].value <= 0n) return bad(e, 'division by a non-constant or of a signed value');
          return `((${t})(${a} ${e.op} ${b}))`;
        case 'min':
          return `(${a} < ${b} ? ${a} : ${b})`;
        case 'max':
          return `(${a} > ${b} ? ${a} : ${b})`;
        default:
          return `((uint8_t)(${a} ${e.op} ${b}))`;
      }
    }
  }
}

// implements [FPIR-BENCH]
/** `void name(const T *in0, …, R *out, long n)`: the kernel lane by lane in plain C. */
export function emitPortable(e: FExpr, name: string, lanes: number): EmittedFunction {
  const inputs = varsOf(e);
  const body = cExpr(e, (v) => `in${inputs.findIndex((x) => x.name === v)}[i]`);
  const params = [...inputs.map((v, k) => `const ${cScalar(v.type)} *restrict in${k}`), `${cScalar(e.type)} *restrict out`, 'long n'];
  const text = [`static void ${name}(${params.join(', ')}) {`, '  for (long i = 0; i < n; i++)', `    out[i] = ${body};`, '}'].join('\n');
  return { text, inputs, lanes };
}
