// How the target language spells the loop names ⟨f, i, j, v⟩ of lemma 2.4 (docs/development.md):
// lowering builds them (fig. 2.9), the lemma 2.4 check and the directives of §2.8 read them back.
// Kept beside the target language because the names are part of every lowered and scheduled
// program, not of any one pass.

/** The loop name ⟨f, i, j, v⟩ of lemma 2.4; `spec` is 0 outside any specialization. */
export interface LoopName {
  readonly func: string;
  readonly stage: number;
  readonly spec: number;
  readonly v: string;
}

/**
 * The loop name ⟨f, i, j, v⟩ spelled as one identifier: `f.s<i>.v`, or `f.s<i>.k<j>.v` inside
 * specialization j ≥ 1.
 */
export function loopVarName(func: string, stage: number, v: string, spec = 0): string {
  return `${func}.s${stage}${spec ? `.k${spec}` : ''}.${v}`;
}

/** Label of stage i of f. Qualified by the func so that stage labels stay unique (spec/lowering.md). */
export function stageLabel(func: string, stage: number): string {
  return `${func}.s${stage}`;
}

const LOOP_NAME = /^([^.]+)\.s(\d+)(?:\.k([1-9]\d*))?\.([^.]+)$/;

/** Reads ⟨f, i, j, v⟩ back from an induction variable; undefined when it is not spelled so. */
export function parseLoopName(v: string): LoopName | undefined {
  const m = LOOP_NAME.exec(v);
  if (!m) return undefined;
  return { func: m[1]!, stage: Number(m[2]), spec: m[3] === undefined ? 0 : Number(m[3]), v: m[4]! };
}

export function showLoopName(n: LoopName): string {
  return loopVarName(n.func, n.stage, n.v, n.spec);
}
