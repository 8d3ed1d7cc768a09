// Every fuzz property by name. `refsem fuzz --property P` selects among these; the default
// campaign runs them all.
import { UserError, argLoc } from '../../diag.js';
import type { AnyProperty } from '../property.js';
import { evaluatorsAlg, evaluatorsTgt } from './evaluators.js';
import { backend } from './backend.js';
import { fpir } from './fpir.js';
import { halide } from './halide.js';
import { perceus } from './perceus.js';
import { operators } from './operators.js';
import { wrongPrograms } from './wrong-programs.js';
import { writeOrder } from './write-order.js';
import { roundtrip } from './roundtrip.js';
import { simplify } from './simplify.js';
import { swizzlePrune } from './swizzle.js';
import { proveVsRun } from './prove-vs-run.js';
import { boundsQuality, confluence, lemmas, memorySafety, raceFree } from './soundness.js';

export const PROPERTIES: readonly AnyProperty[] = [confluence, memorySafety, boundsQuality, raceFree, lemmas, evaluatorsAlg, evaluatorsTgt, roundtrip, perceus, operators, wrongPrograms, writeOrder, simplify];

/** Properties that run only when asked for (they need an option such as --backend). */
export const EXTRA_PROPERTIES: readonly AnyProperty[] = [backend, halide, fpir, swizzlePrune, proveVsRun];

export function propertyNamed(name: string): AnyProperty {
  const p = [...PROPERTIES, ...EXTRA_PROPERTIES].find((q) => q.name === name);
  if (!p) {
    throw new UserError(`unknown property '${name}'`, argLoc('--property', name), `the properties are: ${[...PROPERTIES, ...EXTRA_PROPERTIES].map((q) => q.name).join(', ')}`);
  }
  return p;
}

export function selectProperties(names: readonly string[]): AnyProperty[] {
  if (names.length === 0) return [...PROPERTIES];
  return [...new Set(names)].map(propertyNamed);
}
