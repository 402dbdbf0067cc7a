import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Test files that replace a module with vi.mock need a module registry of their own; every other
 * file shares its worker's, so the sources are imported once per worker rather than once per
 * file (import time fell from 214 s to 12 s of the suite's 2,018 tests, and the run from 583 s to
 * 308 s here). Found by reading the files, so a new vi.mock is isolated without a list to keep.
 */
const MOCKING = (readdirSync('test', { recursive: true, encoding: 'utf8' }) as string[])
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => join('test', file))
  .filter((file) => /\bvi\.(?:mock|doMock)\(/.test(readFileSync(file, 'utf8')));


export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Forks keep the servers and processes of one file apart. The files mostly wait (child
    // processes, sockets, timers): on this machine's two cores, three at a time ran a 40-file
    // sample in 198 s where one at a time (vitest's default here: cores - 1) took 338 s. Once
    // the files shared their modules, four ran the whole suite in 294 s where three took 325 s.
    pool: 'forks',
    maxWorkers: 4,
    // One directory per run for what the test processes share (a migrated store, test keys),
    // and a check that fails the run on a process a test left running (test/support/leftovers.ts).
    globalSetup: ['./test/support/run-dir-setup.ts', './test/support/leftovers.ts'],
    setupFiles: ['./test/support/child-processes.ts', './test/support/cpu-log.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: MOCKING,
          isolate: false,
          // Node 24 loads the TypeScript itself (as a `tokengate` process does), with no Vite
          // transform and module runner in between: back to back, the whole run took 264 s and
          // 444 s of CPU through Vite and 240 s and 405 s this way. vi.mock needs Vite's runner.
          experimental: { viteModuleRunner: false },
        },
      },
      { extends: true, test: { name: 'isolated', include: MOCKING } },
    ],
  },
});
