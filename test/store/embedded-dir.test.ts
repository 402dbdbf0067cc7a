import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '#store';
import { captureLogger, fakeClock } from './harness.ts';

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
    expect((await readdir(dataDir)).sort()).toEqual(['db', 'db.lock']);
    expect(JSON.parse(await readFile(join(dataDir, 'db.lock'), 'utf8'))).toMatchObject({
      host: hostname(),
      pid: process.pid,
    });
    expect((await readdir(join(dataDir, 'db'))).length).toBeGreaterThan(0);
  });

  it('applies the initial migration on first start and logs how long opening took', () => {
    const opened = lines.find((line) => line.msg === 'store opened');
    expect(opened).toMatchObject({ store: 'embedded', appliedMigrations: [1, 2, 3, 4] });
    expect(opened?.ms).toEqual(expect.any(Number));
  });

  it('refuses a second open of a data directory already open in this process', async () => {
    await expect(openStore({ dataDir, clock })).rejects.toThrow(/already open/);
    expect(await store.listProjects()).toEqual([]);
  });

  it('opens the same directory again after close, releasing the lock file', async () => {
    const project = await store.createProject({ name: 'again', plan: 'free' });
    await store.close();
    expect(await readdir(dataDir)).toEqual(['db']);
    store = await openStore({ dataDir: join(dataDir, '.'), clock });
    expect(await store.getProject(project.id)).toEqual(project);
  });

  it('refuses a directory locked by another live process', async () => {
    const other = join(root, 'other');
    await mkdir(other);
    // The parent of this test process is alive and is not us.
    await writeFile(join(other, 'db.lock'), String(process.ppid));
    await expect(openStore({ dataDir: other, clock })).rejects.toThrow(`in use by process ${process.ppid}`);
  });

  it('takes over a lock left by a process that is gone', async () => {
    await store.close();
    await writeFile(join(dataDir, 'db.lock'), '2147483646');
    store = await openStore({ dataDir, clock });
    expect(JSON.parse(await readFile(join(dataDir, 'db.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
  });
});
