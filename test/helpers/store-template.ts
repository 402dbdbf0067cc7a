import { cp, mkdir, mkdtemp, open, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openStore } from '#store';
import { runDir } from './run-dir.ts';

/**
 * A fresh embedded store costs seconds (PGlite's initdb alone is about 5 s here; every migration
 * after it a fifth of a second); a copy of one costs a fraction. The first test process of a run
 * that needs one builds a template in the run's directory (run-dir.ts); every fresh DATA_DIR
 * after that gets a copy of its `db`. Two templates: `initdb` (a PGlite cluster and no migration,
 * for the tests that migrate to an older version, seed it, then migrate the rest) and `migrated`
 * (built from a copy of the first, so a run pays initdb once). Tests about a first start open
 * their store from nothing instead (test/store/embedded-dir.test.ts, test/upstream/data-dir.test.ts).
 */

/** How long a process waits for another one building a template before building its own. */
const BUILD_WAIT_MS = 45_000;
const POLL_MS = 50;

type Template = 'initdb' | 'migrated';

const templates = new Map<Template, Promise<string>>();

/** A new temporary DATA_DIR (0700, as mkdtemp makes it) holding a migrated embedded store. */
export async function migratedDataDir(prefix = 'tg-store-'): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  await copyMigratedStore(dataDir);
  return dataDir;
}

/** Puts a migrated embedded store at `<dataDir>/db`, so that opening it applies no migration. */
export function copyMigratedStore(dataDir: string): Promise<void> {
  return copyTemplate('migrated', dataDir);
}

/**
 * A new temporary DATA_DIR (0700) whose `db` is a PGlite cluster no migration has touched: what
 * `openPgliteRunner` makes of an empty directory, without paying initdb again.
 */
export async function unmigratedDataDir(prefix = 'tg-initdb-'): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  await copyTemplate('initdb', dataDir);
  return dataDir;
}

async function copyTemplate(name: Template, dataDir: string): Promise<void> {
  await cp(await template(name), join(dataDir, 'db'), { recursive: true });
}

function template(name: Template): Promise<string> {
  let located = templates.get(name);
  if (!located) {
    located = locateOrBuild(name);
    templates.set(name, located);
  }
  return located;
}

/** The template's `db`: built by this process, or by another process of the run and waited for. */
async function locateOrBuild(name: Template): Promise<string> {
  const root = await runDir();
  const ready = join(root, name);
  const building = join(root, `${name}.building`);
  const deadline = Date.now() + BUILD_WAIT_MS;
  for (;;) {
    if (await exists(ready)) return join(ready, 'db');
    if (await claim(building)) {
      try {
        await rename(await build(name, root), ready);
        return join(ready, 'db');
      } catch (error) {
        await rm(building, { force: true });
        throw error;
      }
    }
    // The builder is stuck: build one of our own rather than fail every test of this file.
    if (Date.now() > deadline) return join(await build(name, root), 'db');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Builds a template in a directory of its own under `root`, closed so that all is on disk. */
async function build(name: Template, root: string): Promise<string> {
  const dataDir = await mkdtemp(join(root, `build-${name}-`));
  if (name === 'initdb') {
    // 0700 as openPgliteRunner makes it, so that opening a copy narrows nothing.
    await mkdir(join(dataDir, 'db'), { mode: 0o700 });
    await (await PGlite.create(join(dataDir, 'db'))).close();
  } else {
    await copyTemplate('initdb', dataDir);
    await (await openStore({ dataDir })).close();
  }
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
