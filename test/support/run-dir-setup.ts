import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_DIR_ENV } from '../helpers/run-dir.ts';

/**
 * vitest's global setup: one directory per run, named to every test process, where the first
 * process that needs a migrated store template or a test key makes it for all the others.
 * Removed when the run ends.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'tg-test-run-'));
  process.env[RUN_DIR_ENV] = dir;
  return () => rm(dir, { recursive: true, force: true });
}
