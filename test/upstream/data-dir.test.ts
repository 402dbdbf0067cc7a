import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyMigratedStore } from '#test/store-template.ts';
import { startTestUpstream } from './upstream-fixture.ts';

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;
const NARROWED = 'was open to other users: narrowed to 0700';

/** The embedded store's first write-ahead log segment: it records the private signing keys. */
async function walSegment(dataDir: string): Promise<string> {
  const wal = join(dataDir, 'db', 'pg_wal');
  const segment = (await readdir(wal)).find((name) => /^[0-9A-F]{24}$/.test(name));
  if (!segment) throw new Error(`no WAL segment in ${wal}`);
  return join(wal, segment);
}

/**
 * A DATA_DIR as an earlier start left it, but with DATA_DIR and db/ mode 0755 (what a start of a
 * version that did not narrow them left): a copy of the run's migrated store (store-template.ts)
 * rather than a first start of our own, which would run initdb (about 5 s) for nothing the tests
 * look at. Only the first test here is about creating a store from nothing.
 */
async function dataDirLeftOpen(dataDir: string): Promise<void> {
  await mkdir(dataDir);
  await copyMigratedStore(dataDir);
  await chmod(dataDir, 0o755);
  await chmod(join(dataDir, 'db'), 0o755);
}

describe('DATA_DIR of the embedded store', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tokengate-datadir-'));
    // mkdtemp makes 0700; open it as a home or project directory is, so only DATA_DIR's own mode protects it.
    await chmod(root, 0o755);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('creates a fresh DATA_DIR and its db/ mode 0700, so no other user reaches the files the embedded store writes', {
    timeout: 60_000,
  }, async () => {
    const dataDir = join(root, 'fresh', 'data');
    const upstream = await startTestUpstream({ dataDir });
    await upstream.stop();
    expect(await modeOf(join(root, 'fresh'))).toBe(0o700);
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await modeOf(join(dataDir, 'db'))).toBe(0o700);
    expect(upstream.logs()).not.toContain(NARROWED);
  });

  it('narrows an existing DATA_DIR and db/ left 0755 by an earlier start to 0700 on the next start, saying so once', {
    timeout: 90_000,
  }, async () => {
    const dataDir = join(root, 'existing');
    await dataDirLeftOpen(dataDir);
    const restarted = await startTestUpstream({ dataDir });
    await restarted.stop();
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await modeOf(join(dataDir, 'db'))).toBe(0o700);
    const lines = restarted
      .logs()
      .split('\n')
      .filter((line) => line.includes(NARROWED))
      .map((line) => JSON.parse(line) as { level: number; dir: string; mode: string; msg: string });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        dir: dataDir,
        mode: '0755',
        msg: expect.stringMatching(/^DATA_DIR was open/),
      }),
      expect.objectContaining({
        level: 40,
        dir: join(dataDir, 'db'),
        mode: '0755',
        msg: expect.stringMatching(/^DATA_DIR\/db was open/),
      }),
    ]);
    const again = await startTestUpstream({ dataDir });
    await again.stop();
    expect(again.logs()).not.toContain(NARROWED);
  });

  // Only root can act as another user; elsewhere the modes asserted above are the proof.
  it.runIf(process.getuid?.() === 0)(
    'keeps another local user from reading the write-ahead log that holds the signing keys',
    { timeout: 60_000 },
    async () => {
      // Left 0755, so that what keeps the other user out is the start narrowing it.
      const dataDir = join(root, 'shared');
      await dataDirLeftOpen(dataDir);
      await (await startTestUpstream({ dataDir })).stop();
      const segment = await walSegment(dataDir);
      const asNobody = spawnSync('head', ['-c', '1', segment], { uid: 65534, gid: 65534, encoding: 'utf8' });
      expect(asNobody.stderr).toContain('Permission denied');
      expect(asNobody.status).not.toBe(0);
    },
  );
});
