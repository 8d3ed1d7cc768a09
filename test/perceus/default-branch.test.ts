// Default branches ([DEFAULT-BRANCH]): `_ -> e` covers the constructors no other branch names,
// and inside it the scrutinee variable is the matched value rebuilt from its fields, so the
// scrutinee stays unique and, with reuse, the rebuild writes nothing.
import { describe, expect, it } from 'vitest';
import { CONFIGS, applicableChecks, runConfig } from '../../src/perceus/pipeline.js';
import { printExpr } from '../../src/perceus/print.js';
import { loadProgram } from '../../src/perceus/scope.js';
import { evalStandard } from '../../src/perceus/standard.js';
import { userError } from '../support/errors.js';

const TYPES = 'type expr { Val(n); Var(n); Add(l, r) }\n';
const load = (src: string) => loadProgram(TYPES + src, 'd.lam');

describe('[DEFAULT-BRANCH] default branches', () => {
  it('expands to one branch per constructor left over, rebuilding the scrutinee', () => {
    const p = load('fun f(e) { match e { Add(l, r) -> Add(r, l); _ -> e } }\nfun main() = f(Val(1))');
    const body = printExpr(p.funs.find((d) => d.name === 'f')!.body).replace(/\s+/g, ' ');
    expect(body).toBe("match e { Add(l, r) -> Add(r, l) Val(_'1) -> Val(_'1) Var(_'2) -> Var(_'2) }");
  });

  it('leaves a scrutinee that is not a variable, and a shadowed one, alone', () => {
    const p = load('fun f(e) { match e { Add(l, r) -> 0; _ -> { val e = 5; e } } }\nfun main() = f(Val(1))');
    const body = printExpr(p.funs.find((d) => d.name === 'f')!.body);
    expect(body).not.toMatch(/-> (Val|Var)\(/);
    const q = load('fun g(x) = x\nfun main() = match g(Val(1)) { Add(l, r) -> 0; _ -> 2 }');
    expect(evalStandard(q)).toMatchObject({ kind: 'value', value: { k: 'lit', value: 2 } });
  });

  it('with reuse, rebuilding the matched value takes its own cell and writes no field', () => {
    const core = load('fun f(e) { match e { Add(l, r) -> Add(r, l); _ -> e } }\nfun main() = f(f(f(Val(7))))');
    const reference = evalStandard(core);
    const runs = Object.fromEntries(CONFIGS.map((c) => [c.name, runConfig(core, c, { checks: applicableChecks(c), reference })]));
    for (const r of Object.values(runs)) expect(r.verdict, r.config.name).toEqual({ ok: true });
    expect(runs['+reusespec']!.result.stats).toMatchObject({ allocs: 1, reuses: 3, fieldWrites: 1 });
    // Without reuse every rebuild is a fresh cell (the price of consuming matches).
    expect(runs['perceus']!.result.stats).toMatchObject({ allocs: 4, fieldWrites: 4 });
  });

  it('rejects a default branch that is not last, covers nothing, or stands alone, with its location', () => {
    expect(userError(() => load('fun main() = match Val(1) { _ -> 0; Val(n) -> n }')).render()).toMatch(/^d\.lam:2:29: error: the default branch '_' must come last/);
    expect(userError(() => load('fun main() = match Val(1) { Val(n) -> n; Var(n) -> n; Add(a, b) -> 0; _ -> 1 }')).message).toBe("the default branch '_' covers no constructor");
    expect(userError(() => load('fun main() = match Val(1) { _ -> 1 }')).message).toBe('a match needs at least one constructor pattern');
  });
});
