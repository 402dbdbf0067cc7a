import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '#test/fake-clock.ts';
import { type DpopKey, dpopKey, dpopProof } from '#test/dpop.ts';
import { decodeJwt, type Harness, startHarness, verdictOf } from './harness.ts';

const clock = createFakeClock(Date.now() - (Date.now() % 1000));
let a: Harness;
let b: Harness;
let key: DpopKey;
let id: string;
let secret: string;

beforeAll(async () => {
  a = await startHarness({ clock });
  b = await startHarness({ clock, store: a.store, config: { issuer: a.url, audience: a.url } });
  key = await dpopKey('ES256');
  ({
    client: { clientId: id },
    secret,
  } = await a.client(['email']));
});
afterAll(async () => {
  await b.close();
  await a.close();
});

const tokenUrl = () => `${a.url}/oauth/token`;
const proofFor = (options: Parameters<typeof dpopProof>[3] = {}, htm = 'POST', htu = tokenUrl()) =>
  dpopProof(key, htm, htu, { nowSec: clock.nowSec(), ...options });

async function tokenRequest(
  proof: string | string[] | undefined,
  url = a.url,
  credentials: [string, string] = [id, secret],
): Promise<{ status: number; json: Record<string, unknown> }> {
  const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded' });
  for (const value of proof === undefined ? [] : [proof].flat()) headers.append('dpop', value);
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: credentials[0],
    client_secret: credentials[1],
  });
  const res = await fetch(`${url}/oauth/token`, { method: 'POST', headers, body });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

function expectProofRefused(res: { status: number; json: Record<string, unknown> }) {
  expect(res.status).toBe(400);
  expect(res.json).toEqual({ error: 'invalid_dpop_proof', error_description: expect.any(String) });
}

describe('DPoP at the token endpoint', () => {
  it('binds the token to the proof key (cnf.jkt) and answers token_type DPoP', async () => {
    const res = await tokenRequest(await proofFor());
    expect(res.status).toBe(200);
    expect(res.json['token_type']).toBe('DPoP');
    expect(decodeJwt(res.json['access_token'] as string).payload['cnf']).toEqual({ jkt: key.jkt });
  });

  it('issues a Bearer token without cnf when no proof is sent and the client may do so', async () => {
    const res = await tokenRequest(undefined);
    expect(res.json['token_type']).toBe('Bearer');
    expect(decodeJwt(res.json['access_token'] as string).payload['cnf']).toBeUndefined();
  });

  it('has the upstream’s own check refuse a DPoP-bound token presented as Bearer', async () => {
    const bound = (await tokenRequest(await proofFor())).json['access_token'] as string;
    expect(await verdictOf(a, bound, clock)).toBe('invalid_token');
    const bearer = (await tokenRequest(undefined)).json['access_token'] as string;
    expect(await verdictOf(a, bearer, clock)).toBe('ok');
  });

  it('refuses a replayed proof, on this replica and on another', async () => {
    const proof = await proofFor();
    expect((await tokenRequest(proof)).status).toBe(200);
    expectProofRefused(await tokenRequest(proof));
    expectProofRefused(await tokenRequest(proof, b.url));
    expect(a.logs()).toContain('proof replayed');
  });

  const refusals: Array<[string, () => Promise<string | string[]>, string]> = [
    ['for another method', () => proofFor({}, 'GET'), 'htm'],
    ['for another URL', () => proofFor({}, 'POST', `${a.url}/oauth/revoke`), 'htu mismatch'],
    ['too old', () => proofFor({ nowSec: clock.nowSec() - 120 }), 'iat outside'],
    ['not a JWS', async () => 'garbage', 'malformed'],
    ['sent twice', async () => [await proofFor(), await proofFor()], 'malformed'],
    [
      'signed by another key than its jwk',
      async () => proofFor({ header: { jwk: (await dpopKey()).publicJwk } }),
      'signature invalid',
    ],
  ];
  for (const [what, make, detail] of refusals) {
    it(`refuses a proof ${what} with 400 invalid_dpop_proof`, async () => {
      expectProofRefused(await tokenRequest(await make()));
      expect(a.logs()).toContain(detail);
    });
  }

  it('refuses a client that must use DPoP when it sends no proof, and serves it with one', async () => {
    const { client, secret: own } = await a.client(['email']);
    await a.issuer.setClientRequireDpop(client.clientId, true);
    expectProofRefused(await tokenRequest(undefined, a.url, [client.clientId, own]));
    expect(a.logs()).toContain('DPoP required, no proof');
    const res = await tokenRequest(await proofFor(), a.url, [client.clientId, own]);
    expect(res.json['token_type']).toBe('DPoP');
    await a.issuer.setClientRequireDpop(client.clientId, false);
    expect((await tokenRequest(undefined, a.url, [client.clientId, own])).status).toBe(200);
  });

  it('keeps refusing a replay until the proof is too old, when its iat has a fraction', async () => {
    // iat 0.9 s ahead: accepted until 60.9 s from now, the window reaching past the whole second.
    const proof = await proofFor({ nowSec: clock.nowSec() + 0.9 });
    expect((await tokenRequest(proof)).status).toBe(200);
    clock.advance(60_500);
    // The issuer's periodic prune, run while the proof is still within its window.
    await a.store.pruneJtis(clock.nowSec());
    expectProofRefused(await tokenRequest(proof));
  });

  it('advertises the proof algorithms in the server metadata', async () => {
    const res = await fetch(`${a.url}/.well-known/oauth-authorization-server`);
    const metadata = (await res.json()) as Record<string, unknown>;
    expect(metadata['dpop_signing_alg_values_supported']).toEqual(['RS256', 'PS256', 'ES256', 'EdDSA']);
  });
});
