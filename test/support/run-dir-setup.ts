import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_DIR_ENV } from '../helpers/run-dir.ts';

const ROOT = join(import.meta.dirname, '..', '..');
/** What a `start`, `upstream`, `gateway` or `admin` process loads, imported without running it. */
const ENTRY_POINTS = ['src/cli/cli.ts', 'src/cli/start.ts', 'src/cli/admin/index.ts', 'src/cli/check-config.ts'];

/**
 * Node writes its compile cache when a process exits normally, which many test processes never
 * do (a test ends them with SIGKILL): one process that loads every entry point and exits fills it.
 */
async function warmCompileCache(): Promise<void> {
  const code = ENTRY_POINTS.map((file) => `await import(${JSON.stringify(`./${file}`)});`).join('');
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, stdio: 'ignore' });
  await once(child, 'exit');
}

/**
 * vitest's global setup: one directory per run, named to every test process, where the first
 * process that needs a migrated store template or a test key makes it for all the others.
 * Removed when the run ends.
 *
 * It also holds Node's compile cache for the run: the suite starts a tokengate process some two
 * hundred times, and each one after the first reuses the compiled (and type-stripped) modules.
 * A `start` on a migrated DATA_DIR took 4.0-4.6 s of CPU with it against 4.8-5.7 s without.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'tg-test-run-'));
  process.env[RUN_DIR_ENV] = dir;
  process.env['NODE_COMPILE_CACHE'] ??= join(dir, 'compile-cache');
  await warmCompileCache();
  return () => rm(dir, { recursive: true, force: true });
}
