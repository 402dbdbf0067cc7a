import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ClientKey, clientAssertion, clientKey, keySet } from '#test/client-keys.ts';
import { createFakeClock } from '#test/fake-clock.ts';
import { type Harness, postForm, startHarness } from './harness.ts';

const clock = createFakeClock(Date.now() - (Date.now() % 1000));
const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
let a: Harness;
let b: Harness;
let rsa: ClientKey;
let ec: ClientKey;
let clientId: string;

async function keyClient(h: Harness, keys: ClientKey[]): Promise<string> {
  const project = await h.store.createProject({ name: 'p', plan: 'business' });
  const client = await h.issuer.createKeyClient({
    projectId: project.id,
    name: 'k',
    scopes: ['email'],
    jwks: keySet(...keys),
  });
  return client.clientId;
}

const tokenUrl = () => `${a.url}/oauth/token`;

async function assertionFor(key: ClientKey, options: Parameters<typeof clientAssertion>[4] = {}, id = clientId) {
  return clientAssertion(key, id, tokenUrl(), clock.nowSec(), options);
}

function withAssertion(assertion: string, extra: Record<string, string> = {}) {
  return { grant_type: 'client_credentials', client_assertion_type: JWT_BEARER, client_assertion: assertion, ...extra };
}

beforeAll(async () => {
  a = await startHarness({ clock });
  // A second replica on the same store, as two upstreams on one PostgreSQL.
  b = await startHarness({ clock, store: a.store, config: { issuer: a.url, audience: a.url } });
  [rsa, ec] = await Promise.all([clientKey('RS256'), clientKey('ES256')]);
  clientId = await keyClient(a, [rsa, ec]);
});
afterAll(async () => {
  await b.close();
  await a.close();
});
// Fresh brute-force windows for every test (they are per minute on the injected clock).
beforeEach(() => clock.advanceSec(61));

function expectInvalidClient(res: Awaited<ReturnType<typeof postForm>>) {
  expect(res.status).toBe(401);
  expect(res.json).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
}

describe('private_key_jwt at the token endpoint', () => {
  it('issues a token for an assertion signed by any of the client keys, chosen by kid', async () => {
    for (const key of [rsa, ec]) {
      const res = await postForm(a.url, withAssertion(await assertionFor(key)));
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ token_type: 'Bearer', scope: 'email' });
    }
  });

  it('accepts PS256 and EdDSA keys, the issuer as aud, and a client_id beside the assertion', async () => {
    const [ps, ed] = await Promise.all([clientKey('PS256'), clientKey('EdDSA')]);
    const id = await keyClient(a, [ps, ed]);
    const ps256 = await clientAssertion(ps, id, a.url, clock.nowSec());
    expect((await postForm(a.url, withAssertion(ps256, { client_id: id }))).status).toBe(200);
    const eddsa = await clientAssertion(ed, id, tokenUrl(), clock.nowSec(), { claims: { aud: [a.url, 'other'] } });
    expect((await postForm(a.url, withAssertion(eddsa))).status).toBe(200);
  });

  it('authenticates a revocation request with an assertion', async () => {
    const issued = await postForm(a.url, withAssertion(await assertionFor(ec)));
    const token = issued.json['access_token'] as string;
    const res = await postForm(a.url, { token, ...withAssertion(await assertionFor(ec)) }, { path: '/oauth/revoke' });
    expect(res.status).toBe(200);
  });

  it('refuses a replayed assertion, on the same replica and on another', async () => {
    const assertion = await assertionFor(ec);
    expect((await postForm(a.url, withAssertion(assertion))).status).toBe(200);
    expectInvalidClient(await postForm(a.url, withAssertion(assertion)));
    expectInvalidClient(await postForm(b.url, withAssertion(assertion)));
    expect(a.logs()).toContain('assertion replayed');
  });

  it('takes a replaced key set at once on every replica', async () => {
    const [first, second] = await Promise.all([clientKey('ES256'), clientKey('ES256')]);
    const id = await keyClient(a, [first]);
    const signedBy = (key: ClientKey) => clientAssertion(key, id, tokenUrl(), clock.nowSec());
    expect((await postForm(b.url, withAssertion(await signedBy(first)))).status).toBe(200); // b read the client
    await a.issuer.setClientJwks(id, keySet(second));
    expectInvalidClient(await postForm(b.url, withAssertion(await signedBy(first))));
    expect((await postForm(b.url, withAssertion(await signedBy(second)))).status).toBe(200);
  });

  it('advertises the method and the pinned algorithms in the server metadata', async () => {
    const metadata = (await (await fetch(`${a.url}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      string[]
    >;
    expect(metadata.token_endpoint_auth_methods_supported).toContain('private_key_jwt');
    expect(metadata.token_endpoint_auth_signing_alg_values_supported).toEqual(['RS256', 'PS256', 'ES256', 'EdDSA']);
    expect(metadata.revocation_endpoint_auth_methods_supported).toContain('private_key_jwt');
  });
});

describe('refused assertions: 401 invalid_client, the reason only in the log', () => {
  const refusals: Array<[string, () => Promise<string>, string]> = [
    ['iss other than the client', () => assertionFor(ec, { claims: { iss: 'cli_someoneelse' } }), 'claim iss'],
    ['sub other than iss', () => assertionFor(ec, { claims: { sub: 'cli_someoneelse' } }), 'unknown client'],
    ['aud another server', () => assertionFor(ec, { claims: { aud: 'https://elsewhere.example/token' } }), 'claim aud'],
    ['no aud', () => assertionFor(ec, { claims: { aud: undefined } }), 'claim aud'],
    ['no exp', () => assertionFor(ec, { claims: { exp: undefined } }), 'claim exp'],
    ['expired', () => assertionFor(ec, { claims: { exp: clock.nowSec() - 120 } }), 'assertion expired'],
    ['exp more than 5 minutes ahead', () => assertionFor(ec, { claims: { exp: clock.nowSec() + 301 } }), '5 minutes'],
    ['no jti', () => assertionFor(ec, { claims: { jti: undefined } }), 'claim jti'],
    ['nbf in the future', () => assertionFor(ec, { claims: { nbf: clock.nowSec() + 120 } }), 'claim nbf'],
    ['kid of no client key', () => assertionFor(ec, { header: { kid: 'unknown' } }), 'kid names none'],
    ['kid of another key of the set', () => assertionFor(ec, { header: { kid: rsa.kid } }), 'assertion'],
    [
      'signed by a key not in the set',
      async () => assertionFor({ ...(await clientKey('ES256')), kid: ec.kid }),
      'signature invalid',
    ],
    ['alg none', async () => unsigned(clientId), 'assertion'],
    ['not a JWT', async () => 'not.a.jwt', ''],
  ];
  for (const [what, make, reason] of refusals) {
    it(`refuses ${what}`, async () => {
      expectInvalidClient(await postForm(a.url, withAssertion(await make())));
      expect(a.logs()).toContain(reason);
    });
  }

  it('refuses an assertion for a client that has a secret, and a secret for a private_key_jwt client', async () => {
    const { client, secret } = await a.client(['email']);
    expectInvalidClient(
      await postForm(a.url, withAssertion(await clientAssertion(ec, client.clientId, tokenUrl(), clock.nowSec()))),
    );
    expect(a.logs()).toContain('assertion for a client that uses a secret');
    expect(
      (await postForm(a.url, { grant_type: 'client_credentials', client_id: client.clientId, client_secret: secret }))
        .status,
    ).toBe(200);
    const guess = { grant_type: 'client_credentials', client_id: clientId, client_secret: 'anything' };
    expectInvalidClient(await postForm(a.url, guess));
    expect(a.logs()).toContain('secret for a client that uses private_key_jwt');
  });

  it('refuses an algorithm outside the pinned list (RS384) even when the key verifies it', async () => {
    const key = await clientKey('RS384' as never);
    const id = await keyClient(a, [key]);
    expectInvalidClient(
      await postForm(a.url, withAssertion(await clientAssertion(key, id, tokenUrl(), clock.nowSec()))),
    );
    expect(a.logs()).toContain('algorithm not allowed');
  });

  it('refuses a disabled client whose assertion is good', async () => {
    const key = await clientKey('ES256');
    const id = await keyClient(a, [key]);
    await a.issuer.setClientEnabled(id, false);
    expectInvalidClient(
      await postForm(a.url, withAssertion(await clientAssertion(key, id, tokenUrl(), clock.nowSec()))),
    );
  });

  it('refuses a client_id beside the assertion that names another client', async () => {
    expectInvalidClient(await postForm(a.url, withAssertion(await assertionFor(ec), { client_id: 'cli_other' })));
  });

  it('refuses an unknown assertion type with 401 and a half-sent assertion with 400', async () => {
    const assertion = await assertionFor(ec);
    expectInvalidClient(await postForm(a.url, withAssertion(assertion, { client_assertion_type: 'urn:other' })));
    const half = await postForm(a.url, { grant_type: 'client_credentials', client_assertion: assertion });
    expect(half.status).toBe(400);
    expect(half.json['error']).toBe('invalid_request');
  });

  it('refuses an assertion beside a secret or Basic credentials with 400 invalid_request', async () => {
    const both = await postForm(a.url, withAssertion(await assertionFor(ec), { client_secret: 'x' }));
    expect(both.status).toBe(400);
    const basic = await postForm(a.url, withAssertion(await assertionFor(ec)), { basic: [clientId, 'x'] });
    expect(basic.status).toBe(400);
    expect(basic.json['error']).toBe('invalid_request');
  });
});

function unsigned(id: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = clock.nowSec();
  return `${part({ alg: 'none', kid: ec.kid })}.${part({ iss: id, sub: id, aud: tokenUrl(), exp: now + 60, jti: 'n' })}.`;
}
