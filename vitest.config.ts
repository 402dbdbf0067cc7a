import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Two cores: forks keep servers and processes of one file apart without oversubscribing.
    pool: 'forks',
    // One directory per run for what the test processes share (a migrated store, test keys),
    // and a check that fails the run on a process a test left running (test/support/leftovers.ts).
    globalSetup: ['./test/support/run-dir-setup.ts', './test/support/leftovers.ts'],
    setupFiles: ['./test/support/child-processes.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
