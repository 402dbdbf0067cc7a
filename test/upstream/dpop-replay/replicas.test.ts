import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DpopKey, dpopKey, dpopProof } from '#test/dpop.ts';
import { type ReplicaPair, startReplicaPair } from '../replica-pair.ts';
import type { TestUpstream } from '../upstream-fixture.ts';
import { postgresTitle } from '#test/postgres-only.ts';

const base = process.env.TEST_DATABASE_URL;
const PUBLIC_URL = 'http://tokengate.test';
const REDIS_URL = 'redis://127.0.0.1:6379';
const PREFIX = `tg-test-${randomUUID()}:`;

/**
 * Two upstream replicas on one PostgreSQL database sharing the machine's Redis (REDIS_URL, a key
 * prefix of this file's own): the DPoP re-check of API calls records proofs there, so a proof
 * replayed straight to the other replica, past the gateways, is refused.
 */
describe.skipIf(!base)(postgresTitle('the upstream replicas’ DPoP replay memory in Redis'), () => {
  let pair: ReplicaPair | undefined;
  let first: TestUpstream;
  let second: TestUpstream;
  let key: DpopKey;
  let token: string;
  beforeAll(async () => {
    pair = await startReplicaPair(base as string, {
      env: { PUBLIC_URL, REDIS_URL, REDIS_KEY_PREFIX: PREFIX },
      routes: [
        { path: '/api/ping', scope: 'phone', errorExtra: {}, handle: () => ({ status: 200, body: { ok: true } }) },
      ],
    });
    ({ first, second } = pair);
    const project = (await first.admin('POST', '/projects', { name: 'bound', plan: 'business' })).body as {
      id: string;
    };
    const client = (await first.admin('POST', `/projects/${project.id}/clients`, { name: 'c', scopes: ['phone'] }))
      .body as { client_id: string; client_secret: string };
    key = await dpopKey('ES256');
    const res = await fetch(`${first.upstream.url}/oauth/token`, {
      method: 'POST',
      headers: { dpop: await dpopProof(key, 'POST', `${PUBLIC_URL}/oauth/token`) },
      body: new URLSearchParams({ grant_type: 'client_credentials', ...client }),
    });
    const body = (await res.json()) as { access_token: string; token_type: string };
    expect(body.token_type).toBe('DPoP');
    token = body.access_token;
  });
  afterAll(async () => {
    await pair?.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  const call = (at: TestUpstream, proof: string) =>
    fetch(`${at.upstream.url}/api/ping`, { headers: { authorization: `DPoP ${token}`, dpop: proof } });
  const newProof = () => dpopProof(key, 'GET', `${PUBLIC_URL}/api/ping`, { token });

  it('refuses a proof replayed to the other replica, and to the same one', async () => {
    const proof = await newProof();
    expect((await call(first, proof)).status).toBe(200);
    for (const at of [second, first]) {
      const replayed = await call(at, proof);
      expect(replayed.status).toBe(401);
      expect(replayed.headers.get('www-authenticate')).toMatch(/^DPoP .*error="invalid_dpop_proof"/);
    }
    expect((await call(second, await newProof())).status).toBe(200);
  });

  it('records proofs under the upstream’s own keys, apart from the gateways’ (a forwarded proof is checked by both)', async () => {
    const redis = new Redis(REDIS_URL);
    try {
      const keys = await redis.keys(`${PREFIX}*`);
      expect(keys.length).toBeGreaterThan(0);
      for (const k of keys) expect(k.startsWith(`${PREFIX}upstream:dpop:`)).toBe(true);
    } finally {
      redis.disconnect();
    }
  });
});
