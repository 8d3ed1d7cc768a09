// An 8-bit rule decided without a solver (spec/simplify.md [HR-EXHAUST]): when a scalar rule in
// `uint8` or `int8` names few enough values, every assignment of the type's values is evaluated
// with refsem's own operators (eval.ts). That is an exact proof or refutation, and it costs less
// than the bit-vector queries with products that Z3 gives up on.
import { type HExpr, walkH } from './ast.js';
import { type DomainName, wrappingType } from './domain.js';
import { isConstKey } from './encode.js';
import { evalH } from './eval.js';
import { LANE_PARAMS, type Modelled, isVector, wildcardTypes } from './model.js';
import { tmin } from '../../fpir/types.js';

/** At most two 8-bit values and one `is_const` choice: 2^17 evaluations of each side. */
const MAX_POINTS = 1 << 17;

export type Exhausted =
  | { readonly status: 'proved' | 'vacuous' }
  | { readonly status: 'refuted'; readonly counterexample: string; readonly lhs: string; readonly rhs: string };

// implements [HR-EXHAUST]
export function exhaust(r: Modelled, domain: DomainName): Exhausted | undefined {
  const t = wrappingType(domain);
  if (!t || t.bits !== 8 || isVector(r.lhs) || isVector(r.rhs)) return undefined;
  const names = new Set<string>();
  const choices = new Set<string>();
  /** `is_const(a, v)`: chosen true only where `a` is `v`, as in the encoding (encode.ts) */
  const tied: (readonly HExpr[])[] = [];
  for (const e of [r.lhs, r.rhs, ...(r.pred ? [r.pred] : [])]) {
    walkH(e, (x: HExpr) => {
      if (x.k === 'id') names.add(x.name);
      if (x.k === 'call' && x.f === 'is_const') {
        choices.add(isConstKey(x.args));
        if (x.args[1]) tied.push(x.args);
      }
    });
  }
  if ([...names].some((n) => LANE_PARAMS.has(n))) return undefined;
  // Small magnitudes first, so that the counterexample shown is a small one.
  const mag = (v: bigint) => (v < 0n ? -v : v);
  const values = Array.from({ length: 256 }, (_, i) => tmin(t) + BigInt(i)).sort((a, b) => Number(mag(a) - mag(b)) || Number(a - b));
  // A boolean wildcard is 0 or 1, as the encoding's facts say ([HR-WRAP]).
  const types = wildcardTypes(r);
  const axes: [string, readonly bigint[]][] = [...[...names].sort().map((n) => [n, types.get(n) === 'bool' ? [0n, 1n] : values] as [string, bigint[]]), ...[...choices].sort().map((k) => [k, [0n, 1n]] as [string, bigint[]])];
  if (axes.reduce((n, [, vs]) => n * vs.length, 1) > MAX_POINTS) return undefined;
  const at = new Map<string, bigint>();
  const p = { scalars: at, wildcard: (name: string) => at.get(name) ?? 0n };
  let fires = false;
  const walk = (i: number): Exhausted | undefined => {
    if (i === axes.length) {
      if (tied.some((a) => at.get(isConstKey(a)) === 1n && evalH(a[0]!, p, 0n, 1n, t) !== evalH(a[1]!, p, 0n, 1n, t))) return undefined;
      if (evalH(r.pred ?? { k: 'bool', v: true }, p, 0n, 1n, t) === 0n) return undefined;
      fires = true;
      const lv = evalH(r.lhs, p, 0n, 1n, t);
      const rv = evalH(r.rhs, p, 0n, 1n, t);
      if (lv === rv) return undefined;
      const shown = axes.map(([k]) => (k.startsWith('is_const(') ? `${k} = ${at.get(k) === 1n}` : `${k} = ${at.get(k)}`));
      return { status: 'refuted', counterexample: shown.join(', '), lhs: `${lv}`, rhs: `${rv}` };
    }
    const [k, vs] = axes[i]!;
    for (const v of vs) {
      at.set(k, v);
      const got = walk(i + 1);
      if (got) return got;
    }
    return undefined;
  };
  return walk(0) ?? { status: fires ? 'proved' : 'vacuous' };
}
