import { afterAll, describe, expect, it, vi } from 'vitest';
import { startTcpRelay } from '#test/tcp-relay.ts';
import type { ValidationRoute } from '#validation';
import { jwtHeader, temporaryDatabase } from '../e2e/support.ts';
import { clientCredentialsToken, startTestUpstream, type TestUpstream } from './upstream-fixture.ts';
import { postgresTitle } from '#test/postgres-only.ts';

const base = process.env.TEST_DATABASE_URL;

const echoRoute: ValidationRoute = {
  path: '/api/test/echo',
  scope: 'email',
  errorExtra: {},
  handle: () => ({ status: 200, body: { success: true } }),
};

describe.skipIf(!base)(postgresTitle('upstream on PostgreSQL'), () => {
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
    const results = await Promise.allSettled(Array.from({ length: count }, () => startTestUpstream({ env })));
    for (const result of results) if (result.status === 'fulfilled') cleanups.push(() => result.value.destroy());
    return results.map((result) => {
      if (result.status === 'rejected') throw result.reason;
      return result.value;
    });
  };
  const newClient = async (t: TestUpstream) => {
    const project = (await t.admin('POST', '/projects', { name: 'p', plan: 'business' })).body as { id: string };
    return (await t.admin('POST', `/projects/${project.id}/clients`, { name: 'c', scopes: ['email'] })).body as {
      client_id: string;
      client_secret: string;
    };
  };
  const keySet = async (t: TestUpstream) =>
    (await (await fetch(`${t.upstream.url}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> };

  it('starts two replicas together on an empty database, both publishing one active and one next key and signing with the same one', async () => {
    const replicas = await startTogether(2, { DATABASE_URL: await database() });
    const [first, second] = await Promise.all(replicas.map(keySet));
    expect(first?.keys).toHaveLength(2);
    expect(second).toEqual(first);
    const client = await newClient(replicas[0]!);
    for (const replica of replicas) {
      const token = await clientCredentialsToken(replica.upstream.url, client.client_id, client.client_secret);
      expect(jwtHeader(token).kid).toBe(first?.keys[0]?.kid);
    }
  });

  it('answers 503 with Retry-After within its timeout while PostgreSQL is stalled and reports not ready until it answers again', {
    timeout: 90_000,
  }, async () => {
    const db = new URL(await database());
    const relay = await startTcpRelay({ host: db.hostname, port: Number(db.port || 5432) });
    let t: TestUpstream | undefined;
    // Cut the relay first: a store call still hanging (no timeout) would keep the upstream from closing.
    cleanups.push(async () => {
      await relay.close();
      await t?.destroy();
    });
    const relayed = new URL(db);
    relayed.host = `127.0.0.1:${relay.port}`;
    t = await startTestUpstream({
      env: { DATABASE_URL: relayed.toString(), DATABASE_TIMEOUT_MS: '1000' },
      routes: [echoRoute],
    });
    const client = await newClient(t);
    const url = t.upstream.url;
    const tokenRequest = () =>
      fetch(`${url}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client.client_id,
          client_secret: client.client_secret,
        }),
        signal: AbortSignal.timeout(15_000),
      });
    const readiness = async () => {
      const res = await fetch(`${url}/readyz`);
      return { status: res.status, body: await res.json() };
    };

    relay.freeze();
    // The client was never looked up, so the token request needs the store; so does an unknown API key.
    const [token, apiCall] = await Promise.all([
      tokenRequest(),
      fetch(`${url}/api/test/echo?key=key_never_seen`, {
        headers: { authorization: 'a-secret' },
        signal: AbortSignal.timeout(15_000),
      }),
    ]);
    expect(token.status).toBe(503);
    expect(token.headers.get('retry-after')).toBe('5');
    expect(await token.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'the service is temporarily unavailable; try again later',
    });
    expect(apiCall.status).toBe(503);
    expect(await apiCall.json()).toMatchObject({ error_code: '1055', success: false });
    await vi.waitFor(
      async () =>
        expect(await readiness()).toEqual({
          status: 503,
          body: { status: 'not ready', checks: { keys: true, store: false, accepting: true } },
        }),
      {
        timeout: 30_000,
        interval: 250,
      },
    );

    relay.thaw();
    await vi.waitFor(async () => expect((await readiness()).status).toBe(200), { timeout: 30_000, interval: 250 });
    expect((await tokenRequest()).status).toBe(200);
  });
});
