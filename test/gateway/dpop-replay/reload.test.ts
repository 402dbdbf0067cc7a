import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '#gateway';
import { type DpopKey, dpopKey, dpopProof } from '#test/dpop.ts';
import { TEST_ISSUER } from '#test/tokens.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const PATH = '/api/au/address/autocomplete';
let h: Harness;
let key: DpopKey;

// No Redis: proofs are remembered in this gateway's memory.
beforeAll(async () => {
  h = await startHarness(import.meta.dirname);
  key = await dpopKey('ES256');
}, 60_000);
afterAll(() => h?.close());

const call = (token: string, proof: string) =>
  h.fetch(`${PATH}?q=1`, { headers: { authorization: `DPoP ${token}`, dpop: proof } });

describe('DPoP proofs remembered in memory across a reload', () => {
  it('refuses a proof replayed after a reload rebuilt the verification runtime', async () => {
    const token = await h.kit.tokenWithScopes(['address'], { claims: { cnf: { jkt: key.jkt } } });
    const proof = await dpopProof(key, 'GET', `${TEST_ISSUER}${PATH}`, {
      token,
      nowSec: Math.floor(Date.now() / 1000),
    });
    expect((await call(token, proof)).status).toBe(200);
    const config = loadGatewayConfig(h.configFile, h.env);
    // A changed cache section builds a new verifier (reload/needs-restart.ts).
    const next = { ...config, caches: { ...config.caches, negative: { ...config.caches.negative, ttlSec: 31 } } };
    expect((await h.gateway.reload(next)).ok).toBe(true);
    const replayed = await call(token, proof);
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({ error_code: '1027' });
  });
});
