import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIssuer, type IssuerConfig, KeyEncryptionError } from '#issuer';
import { openStore, type Store } from '#store';
import { migratedDataDir } from '#test/store-template.ts';
import { logSink } from './harness.ts';

const KEK = 'a-key-encryption-key-of-32-chars!';
const config: IssuerConfig = {
  issuer: 'http://127.0.0.1:8080',
  audience: 'http://127.0.0.1:8080',
  algorithm: 'RS256',
  feedToken: 'f'.repeat(32),
};
let dataDir: string;
let store: Store;

beforeAll(async () => {
  dataDir = await migratedDataDir('tokengate-kek-');
  store = await openStore({ dataDir });
});
afterAll(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

const start = (keyEncryptionKey?: string) =>
  createIssuer({ store, config: { ...config, keyEncryptionKey }, log: logSink().log });

describe('private keys encrypted at rest', () => {
  it('stores AES-256-GCM envelopes with no private member in clear', async () => {
    const issuer = await start(KEK);
    await issuer.close();
    const keys = await store.listSigningKeys();
    expect(keys.length).toBeGreaterThanOrEqual(2);
    for (const key of keys) {
      const stored = JSON.parse(key.privateKey) as Record<string, unknown>;
      expect(stored).toMatchObject({
        v: 1,
        enc: 'A256GCM',
        salt: expect.any(String),
        iv: expect.any(String),
        tag: expect.any(String),
        ct: expect.any(String),
      });
      for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'n']) expect(stored).not.toHaveProperty(member);
      expect(key.privateKey).not.toContain(String(key.publicJwk['n']).slice(0, 40));
      expect(key.publicJwk).not.toHaveProperty('d');
    }
  });

  it('restarts with the same KEY_ENCRYPTION_KEY and signs with the stored key', async () => {
    const kids = (await store.listSigningKeys()).map((k) => k.kid).sort();
    const issuer = await start(KEK);
    expect((await issuer.listKeys()).map((k) => k.kid).sort()).toEqual(kids);
    await issuer.close();
  });

  it('refuses to start when encrypted keys exist but KEY_ENCRYPTION_KEY is missing', async () => {
    const failure = start(undefined);
    await expect(failure).rejects.toThrow(KeyEncryptionError);
    await expect(failure).rejects.toThrow(/KEY_ENCRYPTION_KEY is not set/);
  });

  it('refuses to start with a wrong KEY_ENCRYPTION_KEY', async () => {
    await expect(start('another-key-encryption-key-32chars')).rejects.toThrow(/KEY_ENCRYPTION_KEY does not decrypt/);
  });

  it('encrypts keys created by a rotation too', async () => {
    const issuer = await start(KEK);
    const { kid } = await issuer.rotateKeys();
    await issuer.close();
    const next = (await store.listSigningKeys()).filter((k) => k.status === 'next');
    expect(next).toHaveLength(1);
    expect(next[0]?.kid).not.toBe(kid);
    expect(JSON.parse(next[0]?.privateKey ?? '{}')).toHaveProperty('enc', 'A256GCM');
  });
});
