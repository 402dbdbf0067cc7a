import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveSecret } from '../../src/upstream/secret-file.ts';

describe('admin and feed token files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tokengate-secret-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('generates a 256-bit token into a mode 0600 file on first start', async () => {
    const dataDir = join(dir, 'nested', 'data');
    const secret = await resolveSecret(dataDir, 'admin-token', undefined);
    expect(secret.source).toBe('file');
    expect(secret.path).toBe(join(dataDir, 'admin-token'));
    expect(Buffer.from(secret.value, 'base64url')).toHaveLength(32);
    expect((await stat(secret.path)).mode & 0o777).toBe(0o600);
    expect((await readFile(secret.path, 'utf8')).trim()).toBe(secret.value);
  });

  it('reads the same token on the next start', async () => {
    const first = await resolveSecret(dir, 'feed-token', undefined);
    const second = await resolveSecret(dir, 'feed-token', undefined);
    expect(second.value).toBe(first.value);
  });

  it('prefers the environment and then writes no file', async () => {
    const secret = await resolveSecret(dir, 'admin-token', 'from-env-token');
    expect(secret).toMatchObject({ value: 'from-env-token', source: 'env' });
    await expect(stat(join(dir, 'admin-token'))).rejects.toThrow(/ENOENT/);
  });

  it('uses an operator-written token file as it is', async () => {
    await writeFile(join(dir, 'admin-token'), 'chosen-by-operator\n', { mode: 0o600 });
    expect((await resolveSecret(dir, 'admin-token', undefined)).value).toBe('chosen-by-operator');
  });
});
