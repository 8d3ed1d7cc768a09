import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // forks, not threads: spec-example tests change the working directory per example.
    pool: 'forks',
    // One worker per core. Vitest's default in run mode is one fewer, which on a 2-core machine
    // runs the files one at a time although many of them mostly wait for child processes
    // (compilers, fuzz workers, the Halide server): 17 minutes there instead of 11.
    maxWorkers: availableParallelism(),
    testTimeout: 120_000,
    hookTimeout: 120_000,
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['text-summary', 'json-summary'],
    },
  },
});
