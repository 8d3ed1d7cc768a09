// Generation profiles: what a property's cases stress. Most properties draw from the default
// distribution; race-freedom (def. 2.16) needs parallel loops, and the compiled backends need
// vectorized loops over values that do not fit 32 bits (thesis §5.1). A profile favours
// directives and widens the generated values and windows; it never changes what is valid.
import type { GenOptions } from './pipeline.js';

export interface Profile {
  /** extra choice weight per directive name (the uniform choice over all directives weighs 6) */
  readonly favour: Readonly<Record<string, number>>;
  /** generation options layered over the environment's */
  readonly gen: Partial<GenOptions>;
}

// Placements are where multi-func schedule bugs live (compute-at inside compute-at, storage at
// another level); uniform choices over a dozen directives would make them rare.
const PLACEMENTS = { 'compute-at': 18, 'store-at': 6 };

export const PROFILES = {
  default: { favour: PLACEMENTS, gen: {} },
  parallel: { favour: { traverse: 6 }, gen: {} },
  // The backends' vector loops come mostly from the vector template (vector-template.ts); wide
  // windows give the loops it splits room for whole vectors plus a tail.
  // The generic generator alone: its leaves carry the wide constants, and each backend check
  // compiles its case, so pipelines stay small.
  codegen: { favour: { vectorize: 4 }, gen: { wideConstants: true, maxInnerLen: 20, farWindows: false, app: { share: 0, maxFuncs: 1 } } },
  // Integers at and beyond ±2^53 among the constants and the window minima, where values change
  // representation (value.ts): what the evaluators and executors must agree on there, a default
  // case (constants within ±40, windows near 0) never reaches.
  extremes: { favour: PLACEMENTS, gen: { extremeConstants: true, extremeMins: true } },
} as const satisfies Record<string, Profile>;

export type ProfileName = keyof typeof PROFILES;
