// Checking a set of Halide rules at the edge, where worker threads live (spec/simplify.md [HR-REPORT]): the modelled rules are verified
// in this thread, or handed one at a time to `jobs` worker threads each with its own Z3.
import { Worker } from 'node:worker_threads';
import type { Modelled } from '../simplify/halide/model.js';
import { type SynthesizedPredicate, asksForPredicate, synthesizePredicate } from '../simplify/halide/predicate.js';
import type { Prepared } from '../simplify/halide/report.js';
import { type HVerdict, type VerifyOptions, verifyInDomains } from '../simplify/halide/verify.js';
import type { DomainName } from '../simplify/halide/domain.js';

export interface RunOptions extends VerifyOptions {
  readonly jobs?: number;
  /** check only in these domains (default: every domain a rule's guards admit) */
  readonly domains?: readonly DomainName[];
  /** called after each verdict, with the number done and the total */
  readonly progress?: (done: number, total: number) => void;
}

export async function verifyPrepared(prepared: readonly Prepared[], opts: RunOptions = {}): Promise<Map<Prepared, HVerdict>> {
  const only = opts.domains;
  const todo = prepared.flatMap((p) => {
    if (!p.model.ok) return [];
    const rule = p.model.rule;
    const domains = (rule.domains ?? ['halide']).filter((d) => !only || only.includes(d));
    return domains.length > 0 ? [{ p, rule: { ...rule, domains } }] : [];
  });
  const out = new Map<Prepared, HVerdict>();
  const verifyOpts: VerifyOptions = { ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}), ...(opts.bits ? { bits: opts.bits } : {}) };
  const jobs = Math.max(1, Math.min(opts.jobs ?? 1, todo.length));
  if (jobs === 1) {
    for (const t of todo) {
      out.set(t.p, await verifyInDomains(t.rule, t.rule.domains, verifyOpts));
      opts.progress?.(out.size, todo.length);
    }
    return out;
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: jobs }, () => new Promise<void>((resolve, reject) => {
      const w = new Worker(new URL('./halide-rules-worker.js', import.meta.url), { workerData: verifyOpts });
      const feed = () => {
        if (next >= todo.length) {
          w.postMessage('stop');
          return;
        }
        const i = next++;
        w.postMessage({ i, rule: todo[i]!.rule satisfies Modelled });
      };
      w.on('message', (m: { i: number; verdict: HVerdict }) => {
        out.set(todo[m.i]!.p, m.verdict);
        opts.progress?.(out.size, todo.length);
        feed();
      });
      w.on('error', reject);
      w.on('exit', () => resolve());
      feed();
    })),
  );
  return out;
}

/** A predicate for every modelled rule written with the predicate `false` ([HR-PRED]). */
export async function synthesizeAsked(prepared: readonly Prepared[], opts: VerifyOptions = {}): Promise<Map<Prepared, SynthesizedPredicate>> {
  const out = new Map<Prepared, SynthesizedPredicate>();
  for (const p of prepared) {
    if (!p.model.ok || !asksForPredicate(p.model.rule.pred)) continue;
    const { pred: _false, ...rule } = p.model.rule;
    const got = await synthesizePredicate(rule, opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {});
    if (got) out.set(p, got);
  }
  return out;
}
