import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Two cores: forks keep servers and processes of one file apart without oversubscribing.
    pool: 'forks',
    // One directory per run for what the test processes share: a migrated store, test keys.
    globalSetup: ['./test/support/run-dir-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
