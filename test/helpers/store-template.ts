import { cp, mkdtemp, open, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '#store';
import { runDir } from './run-dir.ts';

/**
 * A fresh embedded store costs seconds (PGlite's initdb, then every migration); a copy of one
 * already migrated costs a fraction. The first test process of a run that needs one migrates a
 * template in the run's directory (run-dir.ts); every fresh DATA_DIR after that gets a copy of
 * its `db`. Tests about migrating or about a first start open their store from scratch instead.
 */

/** How long a process waits for another one building the template before building its own. */
const BUILD_WAIT_MS = 45_000;
const POLL_MS = 50;

let template: Promise<string> | undefined;

/** A new temporary DATA_DIR (0700, as mkdtemp makes it) holding a migrated embedded store. */
export async function migratedDataDir(prefix = 'tg-store-'): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  await copyMigratedStore(dataDir);
  return dataDir;
}

/** Puts a migrated embedded store at `<dataDir>/db`, so that opening it applies no migration. */
export async function copyMigratedStore(dataDir: string): Promise<void> {
  template ??= locateOrBuild();
  await cp(await template, join(dataDir, 'db'), { recursive: true });
}

/** The template's `db`: built by this process, or by another process of the run and waited for. */
async function locateOrBuild(): Promise<string> {
  const root = await runDir();
  const ready = join(root, 'store');
  const building = join(root, 'store.building');
  const deadline = Date.now() + BUILD_WAIT_MS;
  for (;;) {
    if (await exists(ready)) return join(ready, 'db');
    if (await claim(building)) {
      try {
        await rename(await build(root), ready);
        return join(ready, 'db');
      } catch (error) {
        await rm(building, { force: true });
        throw error;
      }
    }
    // The builder is stuck: build one of our own rather than fail every test of this file.
    if (Date.now() > deadline) return join(await build(root), 'db');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Migrates a new store in a directory of its own under `root`, closed so that all is on disk. */
async function build(root: string): Promise<string> {
  const dataDir = await mkdtemp(join(root, 'build-'));
  await (await openStore({ dataDir })).close();
  return dataDir;
}

/** True for the one process of the run that creates `file` first. */
async function claim(file: string): Promise<boolean> {
  try {
    await (await open(file, 'wx')).close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
