// Loading an algorithm from source: parsing (spec/syntax.md) followed by validity (defs. 2.7–2.10).
import type { Pipeline } from './ast.js';
import { parsePipeline } from './parse.js';
import { validatePipeline } from './validate.js';

export function loadPipeline(src: string, file: string): Pipeline {
  const p = parsePipeline(src, file);
  validatePipeline(p);
  return p;
}
