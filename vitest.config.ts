import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Forks keep the servers and processes of one file apart. The files mostly wait (child
    // processes, sockets, timers): on this machine's two cores, three at a time ran a 40-file
    // sample in 198 s where one at a time (vitest's default here: cores - 1) took 338 s.
    pool: 'forks',
    maxWorkers: 3,
    // One directory per run for what the test processes share (a migrated store, test keys),
    // and a check that fails the run on a process a test left running (test/support/leftovers.ts).
    globalSetup: ['./test/support/run-dir-setup.ts', './test/support/leftovers.ts'],
    setupFiles: ['./test/support/child-processes.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
