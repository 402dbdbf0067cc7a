import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DpopKey, dpopKey, dpopProof } from '#test/dpop.ts';
import { TEST_ISSUER } from '#test/tokens.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const PATH = '/api/au/address/autocomplete';
let h: Harness;
let key: DpopKey;

beforeAll(async () => {
  h = await startHarness(import.meta.dirname);
  key = await dpopKey('ES256');
}, 60_000);
afterAll(() => h?.close());

async function callWithProofFor(htu: string) {
  const token = await h.kit.tokenWithScopes(['address'], { claims: { cnf: { jkt: key.jkt } } });
  const proof = await dpopProof(key, 'GET', htu, { token, nowSec: Math.floor(Date.now() / 1000) });
  return h.fetch(`${PATH}?q=1`, { headers: { authorization: `DPoP ${token}`, dpop: proof } });
}

describe('dpop.publicUrl: the URL clients address the gateway at', () => {
  it('accepts a proof naming the public URL with its path prefix', async () => {
    const res = await callWithProofFor(`https://api.example.com/edge${PATH}`);
    expect(res.status).toBe(200);
  });

  it('refuses a proof naming the issuer, which clients do not address here, with 1027', async () => {
    const res = await callWithProofFor(`${TEST_ISSUER}${PATH}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error_code: '1027' });
  });
});
