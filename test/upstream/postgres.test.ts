import { afterAll, describe, expect, it } from 'vitest';
import { jwtHeader, temporaryDatabase } from '../e2e/support.ts';
import { clientCredentialsToken, startTestUpstream, type TestUpstream } from './upstream-fixture.ts';

const base = process.env.TEST_DATABASE_URL;

describe.skipIf(!base)('upstream replicas on PostgreSQL (skipped: TEST_DATABASE_URL is not set)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  const database = async () => {
    const db = await temporaryDatabase(base!);
    cleanups.push(db.drop);
    return db.url;
  };
  /** Starts replicas together; every one that started is destroyed after the file, whatever the others did. */
  const startTogether = async (count: number, env: Record<string, string>) => {
    const results = await Promise.allSettled(Array.from({ length: count }, () => startTestUpstream({ env: { LOG_LEVEL: 'silent', ...env } })));
    for (const result of results) if (result.status === 'fulfilled') cleanups.push(() => result.value.destroy());
    return results.map((result) => {
      if (result.status === 'rejected') throw result.reason;
      return result.value;
    });
  };
  const keySet = async (t: TestUpstream) => (await (await fetch(`${t.upstream.url}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> };

  it('starts two replicas together on an empty database, both publishing one active and one next key and signing with the same one', async () => {
    const replicas = await startTogether(2, { DATABASE_URL: await database() });
    const [first, second] = await Promise.all(replicas.map(keySet));
    expect(first?.keys).toHaveLength(2);
    expect(second).toEqual(first);
    const project = (await replicas[0]!.admin('POST', '/projects', { name: 'p', plan: 'business' })).body as { id: string };
    const client = (await replicas[0]!.admin('POST', `/projects/${project.id}/clients`, { name: 'c', scopes: ['email'] })).body as { client_id: string; client_secret: string };
    for (const replica of replicas) {
      const token = await clientCredentialsToken(replica.upstream.url, client.client_id, client.client_secret);
      expect(jwtHeader(token).kid).toBe(first?.keys[0]?.kid);
    }
  });
});
