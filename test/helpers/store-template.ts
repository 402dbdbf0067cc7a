import { cpSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, open, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { createLogger } from '#common';
import { openStore } from '#store';
import { loadAddressDataset } from '../../src/validation/address/index.ts';
import { runDir } from './run-dir.ts';

/**
 * A fresh embedded store costs seconds (PGlite's initdb alone is about 5 s here; every migration
 * after it a fifth of a second); a copy of one costs a fraction. The first test process of a run
 * that needs one builds a template in the run's directory (run-dir.ts); every fresh DATA_DIR
 * after that gets a copy. Three templates: `initdb` (a PGlite cluster and no migration, for the
 * tests that migrate to an older version, seed it, then migrate the rest), `migrated` (built
 * from a copy of the first, so a run pays initdb once) and `sample` (the address sample's
 * persisted index, which an upstream otherwise generates in its DATA_DIR at each first start:
 * 0.6 s of CPU, in about 60 upstreams of a run). Tests about a first start open their store and
 * generate their sample from nothing instead (test/store/embedded-dir.test.ts,
 * test/upstream/data-dir.test.ts, test/validation/address/persisted-index.test.ts).
 */

/**
 * The templates' PostgreSQL buffer pool, where initdb writes 128 MB. A test's store holds a few
 * megabytes, and an open sets up the whole pool: a PGlite open of a migrated store took a median
 * of 219 ms of CPU with 128 MB and 131 ms with 16 MB (eight opens each, interleaved, in one
 * process). Only the cache's size differs; what a store does and answers is the same.
 */
const SHARED_BUFFERS = '16MB';

/** How long a process waits for another one building a template before building its own. */
const BUILD_WAIT_MS = 45_000;
const POLL_MS = 50;

type Template = 'initdb' | 'migrated' | 'sample';

const templates = new Map<Template, Promise<string>>();

/**
 * A new temporary DATA_DIR (0700, as mkdtemp makes it) holding a migrated embedded store and,
 * unless `sample` is false (an upstream reading its addresses elsewhere), the address sample.
 */
export async function migratedDataDir(prefix = 'tg-store-', options: { sample?: boolean } = {}): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  await (options.sample === false ? copyTemplate('migrated', dataDir) : copyMigratedStore(dataDir));
  return dataDir;
}

/**
 * A new temporary DATA_DIR for an upstream whose store is elsewhere (PostgreSQL): the address
 * sample only, or nothing when `sample` is false.
 */
export async function storelessDataDir(prefix = 'tg-data-', options: { sample?: boolean } = {}): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  if (options.sample !== false) await copyAddressSample(dataDir);
  return dataDir;
}

/**
 * Puts a migrated embedded store at `<dataDir>/db`, so that opening it applies no migration, and
 * the address sample's index under `<dataDir>/address`.
 */
export async function copyMigratedStore(dataDir: string): Promise<void> {
  await Promise.all([copyTemplate('migrated', dataDir), copyAddressSample(dataDir)]);
}

/** Puts the address sample's persisted index under `<dataDir>/address` (a store elsewhere, as PostgreSQL). */
export function copyAddressSample(dataDir: string): Promise<void> {
  return copyTemplate('sample', dataDir);
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

const PART: Record<Template, string> = { initdb: 'db', migrated: 'db', sample: 'address' };

/**
 * The synchronous copy: Node's is native where `fs.promises.cp` walks the tree in JavaScript,
 * and took 130-145 ms of CPU for a migrated store plus sample (1,075 files, 46 MB) where the
 * promise one took 440-650 ms. It holds the test's event loop that long, once per DATA_DIR.
 */
async function copyTemplate(name: Template, dataDir: string): Promise<void> {
  const source = await template(name);
  const copy = join(dataDir, PART[name]);
  cpSync(source, copy, { recursive: true });
  // cpSync gives the top directory the default mode; PGlite's data directory is 0700.
  await chmod(copy, (await stat(source)).mode);
}

function template(name: Template): Promise<string> {
  let located = templates.get(name);
  if (!located) {
    located = locateOrBuild(name);
    templates.set(name, located);
  }
  return located;
}

/** The template's part: built by this process, or by another process of the run and waited for. */
async function locateOrBuild(name: Template): Promise<string> {
  const root = await runDir();
  const ready = join(root, name);
  const building = join(root, `${name}.building`);
  const deadline = Date.now() + BUILD_WAIT_MS;
  for (;;) {
    if (await exists(ready)) return join(ready, PART[name]);
    if (await claim(building)) {
      try {
        await rename(await build(name, root), ready);
        return join(ready, PART[name]);
      } catch (error) {
        await rm(building, { force: true });
        throw error;
      }
    }
    // The builder is stuck: build one of our own rather than fail every test of this file.
    if (Date.now() > deadline) return join(await build(name, root), PART[name]);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Builds a template in a directory of its own under `root`, closed so that all is on disk. */
async function build(name: Template, root: string): Promise<string> {
  const dataDir = await mkdtemp(join(root, `build-${name}-`));
  if (name === 'initdb') {
    // 0700 as openPgliteRunner makes it, so that opening a copy narrows nothing.
    await mkdir(join(dataDir, 'db'), { mode: 0o700 });
    const db = await PGlite.create(join(dataDir, 'db'));
    await db.exec(`ALTER SYSTEM SET shared_buffers = '${SHARED_BUFFERS}'`);
    await db.close();
  } else if (name === 'migrated') {
    await copyTemplate('initdb', dataDir);
    await (await openStore({ dataDir })).close();
  } else {
    await loadAddressDataset({ dataDir, log: createLogger({ level: 'silent' }) });
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
