// The size of generated cases grows as a campaign goes (QuickCheck's size parameter): a worker's
// first checks draw pipelines of few funcs and schedules of few directives, and each level adds a
// share of the configured maxima. In a `--time` campaign the ramp adapts to the component under
// test: a check in which a plug-in bounds engine ran longer than SLOW_ENGINE_MS, or a check that
// hit the time budget, takes the worker a level down, so that a slow engine is tested on many
// small cases instead of timing out on a few big ones. A `--runs` campaign ramps by check index
// alone, so that it stays the same for a seed on any machine.
import { BUILTIN_ENGINES, type BoundsEngine } from '../bounds/engine.js';
import { type EnvConfig, type FuzzEnv, genOptionsOf } from './env.js';

export const SIZE_LEVELS = 8;
/** checks per level */
export const RAMP_STEP = 4;
/**
 * Decision: a plug-in engine slower than this within one check holds the size back. A quarter of a
 * second per check keeps a campaign above a few checks per second per job.
 */
export const SLOW_ENGINE_MS = 250;

/** The level of ramp position `pos` (1 = smallest, SIZE_LEVELS = the configured maxima). */
export const levelAt = (pos: number): number => Math.min(SIZE_LEVELS, 1 + Math.floor(Math.max(0, pos) / RAMP_STEP));

/** The first ramp position of a level. */
export const posOf = (level: number): number => (Math.max(1, level) - 1) * RAMP_STEP;

/** A maximum's share at a level: at least one while the maximum allows any (a maximum of 0 stays 0). */
const share = (max: number, level: number): number => Math.min(max, Math.max(1, Math.ceil((max * level) / SIZE_LEVELS)));

/** The configuration at a size level: maxima cut to their share (level SIZE_LEVELS leaves them as they are). */
export function sizedConfig(config: EnvConfig, level: number): EnvConfig {
  if (level >= SIZE_LEVELS) return config;
  return { ...config, maxFuncs: share(config.maxFuncs, level), maxDirectives: share(config.maxDirectives, level) };
}

/** Is this engine one of the built-in ones (not the component under test)? */
export const isBuiltinEngine = (e: BoundsEngine): boolean => Object.values(BUILTIN_ENGINES).includes(e);

/**
 * Environments per size level, built once each (properties cache their arbitraries per
 * environment). What a zoo fault or a plug-in planted into the environment is kept; only the size
 * of generation changes.
 */
export function sizedEnvs(env: FuzzEnv): (level: number) => FuzzEnv {
  const cache = new Map<number, FuzzEnv>();
  return (level) => {
    const l = Math.min(SIZE_LEVELS, Math.max(1, level));
    if (l === SIZE_LEVELS) return env;
    let e = cache.get(l);
    if (!e) {
      const config = sizedConfig(env.config, l);
      const g = genOptionsOf(config);
      const { app: _app, ...rest } = env.gen;
      e = { ...env, config, gen: { ...rest, maxFuncs: g.maxFuncs, ...(g.app ? { app: g.app } : {}) } };
      cache.set(l, e);
    }
    return e;
  };
}

/**
 * The engine of `env` with the time spent in it added to `clock.ms`; a built-in engine is left as
 * it is (it is the reference, and blame compares engines by identity).
 */
export function timedEngine(env: FuzzEnv, clock: EngineClock): FuzzEnv {
  if (isBuiltinEngine(env.engine)) return env;
  const inner = env.engine;
  return {
    ...env,
    engine: {
      name: inner.name,
      complete(t, q) {
        const t0 = performance.now();
        clock.inside?.(true);
        try {
          return inner.complete(t, q);
        } finally {
          clock.inside?.(false);
          clock.ms += performance.now() - t0;
        }
      },
    },
  };
}

/** Time spent in the engine under test; `inside` tells a watchdog when the engine is running. */
export interface EngineClock {
  ms: number;
  readonly inside?: (running: boolean) => void;
}
