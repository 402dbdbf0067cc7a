/** Set by the run's global setup (leftovers.ts): one id per `vitest run`. */
export const RUN_ID_VARIABLE = 'TOKENGATE_TEST_RUN';
/** In the environment of every process the tests start, and so of their children: `<run id>`. */
export const CHILD_MARKER = 'TOKENGATE_TEST_CHILD';
