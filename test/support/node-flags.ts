/**
 * V8 flags for the Node processes the tests start (child-processes.ts adds them to each spawn
 * of this Node; a gateway's cluster workers inherit them).
 *
 * A huge WebAssembly tiering budget keeps PGlite's code on V8's baseline compiler: a test's
 * `upstream` or `start` lives seconds, too short to win back the optimising compiler's work
 * on the hot parts of PostgreSQL. Measured back to back, twice each, the processes started by
 * test/cli/processes.test.ts took 16.9-17.7 s of CPU without it and 13.5-14.3 s with it; by
 * test/e2e/embedded.test.ts 24.2-26.8 s and 22.5-22.8 s (TOKENGATE_CPU_LOG). The vitest
 * workers live for the whole run and gained nothing: they keep the default. The budget,
 * not `--liftoff-only`: a function the baseline compiler cannot take still gets the other.
 * What a process does is unchanged, and a `tokengate` outside the tests keeps the default.
 */
export const TEST_NODE_FLAGS: readonly string[] = ['--wasm-tiering-budget=1000000000'];
