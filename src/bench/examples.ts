// The example files the benchmarks run, read from examples/ at the package root (this module
// sits two levels below it both as src/bench and as dist/bench).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Pipeline } from '../alg-semantics/ast.js';
import { loadPipeline } from '../alg-semantics/load.js';

const examples = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples');

/** The path of examples/<path>. */
export function exampleFile(...path: string[]): string {
  return join(examples, ...path);
}

/** The text of examples/<path>. */
export function readExample(...path: string[]): string {
  return readFileSync(join(examples, ...path), 'utf8');
}

/** The separable blur of §2.2 (examples/blur.alg), loaded. */
export function loadBlur(): Pipeline {
  const file = join(examples, 'blur.alg');
  return loadPipeline(readFileSync(file, 'utf8'), file);
}
