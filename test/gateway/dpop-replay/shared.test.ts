import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DpopKey, dpopKey, dpopProof } from '#test/dpop.ts';
import { TEST_ISSUER } from '#test/tokens.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const PATH = '/api/au/address/autocomplete';
// The machine's Redis; proofs' jtis are random, so runs do not meet.
const env = { REDIS_URL: 'redis://127.0.0.1:6379' };
let a: Harness;
let b: Harness;
let key: DpopKey;

beforeAll(async () => {
  a = await startHarness(import.meta.dirname, { env });
  // The second gateway trusts the first one's signing key: the same token is good at both.
  b = await startHarness(import.meta.dirname, { env: { ...env, JWKS_URL: a.jwks.url } });
  key = await dpopKey('ES256');
}, 60_000);
afterAll(async () => {
  await Promise.all([a, b].map((h) => h?.close()));
});

const call = (h: Harness, token: string, proof: string) =>
  h.fetch(`${PATH}?q=1`, { headers: { authorization: `DPoP ${token}`, dpop: proof } });

describe('DPoP proofs replayed to another gateway with REDIS_URL and no rate limits', () => {
  it('are refused there: the gateways share their replay cache', async () => {
    const token = await a.kit.tokenWithScopes(['address'], { claims: { cnf: { jkt: key.jkt } } });
    const proof = () =>
      dpopProof(key, 'GET', `${TEST_ISSUER}${PATH}`, { token, nowSec: Math.floor(Date.now() / 1000) });
    const once = await proof();
    expect((await call(a, token, once)).status).toBe(200);
    const replayed = await call(b, token, once);
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({ error_code: '1027' });
    expect((await call(b, token, await proof())).status).toBe(200);
  });
});
