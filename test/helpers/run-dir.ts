import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Set by test/support/run-dir-setup.ts for every test process of a vitest run. */
export const RUN_DIR_ENV = 'TOKENGATE_TEST_RUN_DIR';

let own: Promise<string> | undefined;

/**
 * The directory the test processes of one run share (store template, test keys). Outside a
 * vitest run (a script importing a helper, as bench/replica-propagation.ts), a directory of this
 * process's own, removed when the process exits.
 */
export function runDir(): Promise<string> {
  const shared = process.env[RUN_DIR_ENV];
  if (shared) return Promise.resolve(shared);
  own ??= mkdtemp(join(tmpdir(), 'tg-test-run-')).then((dir) => {
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  });
  return own;
}
