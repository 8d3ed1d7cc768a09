// The algorithms campaigns check: a mixture of the generic generator (pipeline.ts), which reaches
// every construct of fig. 2.5 in small pipelines, and app-shaped pipelines (app.ts), which compose
// the stage kinds of image-processing apps into DAGs of up to 16 funcs. The share of each is a
// generation option, so unit tests can draw from either alone.
import fc from 'fast-check';
import type { Pipeline } from '../../alg-semantics/ast.js';
import { type AppB, arbAppB, decodeAppFuncs } from './app.js';
import { type GenOptions, type PipelineB, arbPipelineB, decodePipeline, useEveryFunc } from './pipeline.js';

export type AlgorithmB = PipelineB | AppB;

export const isApp = (b: AlgorithmB): b is AppB => 't' in b && b.t === 'app';

export function arbAlgorithmB(o: GenOptions): fc.Arbitrary<AlgorithmB> {
  const share = o.app?.share ?? 0;
  const generic = arbPipelineB(o);
  if (share <= 0 || !o.app) return generic;
  return fc.oneof({ weight: 100 - share, arbitrary: generic }, { weight: share, arbitrary: arbAppB(o.app, o.swarm === true) });
}

export function decodeAlgorithm(b: AlgorithmB, o: GenOptions): Pipeline {
  if (!isApp(b)) return decodePipeline(b, o);
  const { params, funcs } = decodeAppFuncs(b);
  return { output: funcs[funcs.length - 1]!.name, params, funcs: useEveryFunc(funcs) };
}
