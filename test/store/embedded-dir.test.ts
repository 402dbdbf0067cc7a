import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '#store';
import { recordedHolder, run, spawnHolder } from './dir-lock/lock-files.ts';
import { captureLogger, fakeClock } from './harness.ts';
import { loadMigrations } from '../../src/store/migrate.ts';

describe('embedded store data directory', () => {
  const clock = fakeClock(1_800_000_000_000);
  let root: string;
  let dataDir: string;
  let store: Store;
  const { log, lines } = captureLogger();

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tg-dir-'));
    dataDir = join(root, 'missing', 'data');
    store = await openStore({ dataDir, clock }, log);
  });
  afterAll(async () => {
    await store.close();
    await rm(root, { recursive: true, force: true });
  });

  it('creates a missing DATA_DIR and keeps the database under DATA_DIR/db, locked while open', async () => {
    expect(store.kind).toBe('embedded');
    expect((await readdir(dataDir)).sort()).toEqual(['db', 'db.holder', 'db.lock']);
    expect(recordedHolder(join(dataDir, 'db'))).toMatchObject({ host: hostname(), pid: process.pid });
    expect((await readdir(join(dataDir, 'db'))).length).toBeGreaterThan(0);
  });

  it('applies every migration on first start and logs how long opening took', async () => {
    const opened = lines.find((line) => line.msg === 'store opened');
    const every = (await loadMigrations()).map((m) => m.version);
    expect(opened).toMatchObject({ store: 'embedded', appliedMigrations: every });
    expect(opened?.ms).toEqual(expect.any(Number));
  });

  it('refuses a second open of a data directory already open in this process', async () => {
    await expect(openStore({ dataDir, clock })).rejects.toThrow(/already open/);
    expect(await store.listProjects()).toEqual([]);
  });

  it('opens the same directory again after close, which releases its lock', async () => {
    const project = await store.createProject({ name: 'again', plan: 'free' });
    await store.close();
    store = await openStore({ dataDir: join(dataDir, '.'), clock });
    expect(await store.getProject(project.id)).toEqual(project);
  });

  it('refuses a directory locked by another live process', async () => {
    const other = join(root, 'other');
    await mkdir(other);
    const holder = await spawnHolder([join(other, 'db')]);
    try {
      await expect(openStore({ dataDir: other, clock })).rejects.toThrow(`in use by process ${holder.pid}`);
    } finally {
      holder.stdin.end();
      await once(holder, 'exit');
    }
  });

  it('opens a directory whose holder was killed with SIGKILL', async () => {
    await store.close();
    expect(await run('exit-holding.ts', ['SIGKILL', join(dataDir, 'db')])).toMatchObject({ signal: 'SIGKILL' });
    store = await openStore({ dataDir, clock });
    expect(recordedHolder(join(dataDir, 'db'))).toMatchObject({ pid: process.pid });
  });
});
