import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { constants } from 'node:fs';
import { access, chmod, mkdtemp, rm, statfs } from 'node:fs/promises';
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
 * Where the run keeps its files when TMPDIR is unset: in memory. A test's DATA_DIR is a copy
 * of a migrated store (1,073 files); on this machine's ext4 (mounted with `discard`) a copy
 * took 0.7-1.2 s of CPU, and on tmpfs 45-70 ms. The files, the store and what a test checks of
 * them are the same; a TMPDIR someone sets is kept.
 */
const MEMORY_DIR = '/dev/shm';
/** A full run's files peaked at 304 MB: a smaller /dev/shm (a container's is 64 MB) is not used. */
const MEMORY_NEEDED = 2 * 1024 ** 3;

async function roomInMemory(): Promise<boolean> {
  try {
    await access(MEMORY_DIR, constants.W_OK);
    const { bavail, bsize } = await statfs(MEMORY_DIR);
    return bavail * bsize >= MEMORY_NEEDED;
  } catch {
    return false;
  }
}

/**
 * vitest's global setup: one directory per run, named to every test process, where the first
 * process that needs a migrated store template or a test key makes it for all the others.
 * Removed when the run ends, with the tests' temporary directory when the run made it.
 *
 * It also holds Node's compile cache for the run: the suite starts a tokengate process some two
 * hundred times, and each one after the first reuses the compiled (and type-stripped) modules.
 * A `start` on a migrated DATA_DIR took 4.0-4.6 s of CPU with it against 4.8-5.7 s without.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const inMemory = process.env['TMPDIR'] === undefined && (await roomInMemory());
  const dir = await mkdtemp(join(inMemory ? MEMORY_DIR : tmpdir(), 'tg-test-run-'));
  process.env[RUN_DIR_ENV] = dir;
  const removed = [dir];
  if (inMemory) {
    // Sticky and open to all, as /tmp: a test's PostgreSQL runs as its own user in there.
    const tmp = await mkdtemp(join(MEMORY_DIR, 'tg-test-tmp-'));
    await chmod(tmp, 0o1777);
    process.env['TMPDIR'] = tmp;
    removed.push(tmp);
  }
  process.env['NODE_COMPILE_CACHE'] ??= join(dir, 'compile-cache');
  await warmCompileCache();
  return async () => {
    await Promise.all(removed.map((path) => rm(path, { recursive: true, force: true })));
  };
}
