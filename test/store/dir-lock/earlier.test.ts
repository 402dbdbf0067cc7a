import { readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { lockDirectory } from '../../../src/store/dir-lock.ts';
import { lockDirs, recordedHolder } from './lock-files.ts';

/** What an earlier tokengate wrote to db.lock and renewed every 5 s. */
const EARLIER = `${JSON.stringify({ host: 'web-1', pid: 7, since: '2026-11-01T00:00:00.000Z' })}\n`;

describe('embedded store lock: a lock written by an earlier tokengate', () => {
  const { fresh } = lockDirs('tg-lock-earlier-');

  it('refuses a lock of an earlier tokengate while it is renewed (a rolling upgrade), quoting it', async () => {
    const { dir, file } = fresh();
    await writeFile(file, EARLIER);
    await expect(lockDirectory(dir)).rejects.toThrow(
      `embedded store in use by an earlier tokengate: ${file} reads ${EARLIER.trim()}, renewed 0 s ago. One process per DATA_DIR:`,
    );
    await expect(lockDirectory(dir)).rejects.toThrow(
      /Stop it before starting this version; if it is gone, start again in (30|29) s\.$/,
    );
    expect(await readFile(file, 'utf8')).toBe(EARLIER);
  });

  it('replaces a lock of an earlier tokengate left unrenewed past its 30 s lease', async () => {
    const { dir, file } = fresh();
    await writeFile(file, EARLIER);
    const renewed = new Date(Date.now() - 31_000);
    await utimes(file, renewed, renewed);
    const release = await lockDirectory(dir);
    expect(recordedHolder(dir)?.pid).toBe(process.pid);
    await release();
    expect((await stat(file)).size).toBe(0);
  });
});
