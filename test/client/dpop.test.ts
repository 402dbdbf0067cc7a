import { Readable } from 'node:stream';
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accessTokenHash } from '#auth';
import { createTokenClient, TokenEndpointError, TokenRequestError } from '../../src/client/index.ts';
import { type DpopServer, startDpopServer } from './dpop-server.ts';

let server: DpopServer;
beforeEach(async () => {
  server = await startDpopServer();
});
afterEach(async () => {
  await server.close();
});

const dpopClient = (overrides: Partial<Parameters<typeof createTokenClient>[0]> = {}) =>
  createTokenClient({ tokenUrl: server.tokenUrl, clientId: 'cli_1', clientSecret: 's', dpop: true, ...overrides });

describe('tokengate/client with DPoP: token requests', () => {
  it('sends a proof for POST at the token endpoint with a generated ES256 key, and gets a DPoP token', async () => {
    const token = await dpopClient().getToken();
    const proof = server.tokenCalls[0]?.proof;
    expect(proof?.header).toMatchObject({ alg: 'ES256', typ: 'dpop+jwt', jwk: { kty: 'EC', crv: 'P-256' } });
    expect(Object.keys(proof?.header.jwk ?? {}).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    expect(proof?.payload).toMatchObject({ htm: 'POST', htu: server.tokenUrl });
    expect(proof?.payload).not.toHaveProperty('ath');
    expect(server.tokens.get(token)).toBe(await calculateJwkThumbprint(proof?.header.jwk ?? {}));
  });

  it("binds tokens to the key pair it is given: the proof's jwk is that public key", async () => {
    const { publicKey, privateKey } = await generateKeyPair('EdDSA');
    const token = await dpopClient({ dpop: { publicKey, privateKey, alg: 'EdDSA' } }).getToken();
    const jkt = await calculateJwkThumbprint(await exportJWK(publicKey));
    expect(server.tokens.get(token)).toBe(jkt);
    expect(server.tokenCalls[0]?.proof?.header.alg).toBe('EdDSA');
  });

  it('keeps one key for the life of the client: the token after invalidate is bound to the same key', async () => {
    const client = dpopClient();
    const first = await client.getToken();
    client.invalidate();
    const second = await client.getToken();
    expect(second).not.toBe(first);
    expect(server.tokens.get(second)).toBe(server.tokens.get(first));
    expect(server.tokenCalls[0]?.proof?.payload.jti).not.toBe(server.tokenCalls[1]?.proof?.payload.jti);
  });

  it("retries once with the issuer's nonce on 400 use_dpop_nonce, then sends that nonce at once", async () => {
    server.tokenNonce = 'n-issuer-1';
    const client = dpopClient();
    await client.getToken();
    expect(server.tokenCalls.map((call) => call.proof?.payload.nonce)).toEqual([undefined, 'n-issuer-1']);
    expect(server.tokenCalls[0]?.proof?.payload.jti).not.toBe(server.tokenCalls[1]?.proof?.payload.jti);
    client.invalidate();
    await client.getToken();
    expect(server.tokenCalls.map((call) => call.proof?.payload.nonce)).toEqual([undefined, 'n-issuer-1', 'n-issuer-1']);
  });

  it('signs a new client assertion for the nonce retry, as each is accepted once', async () => {
    server.tokenNonce = 'n-issuer-1';
    const { privateKey } = await generateKeyPair('ES256');
    const client = dpopClient({ clientSecret: undefined, privateKey: { key: privateKey, kid: 'k1', alg: 'ES256' } });
    await client.getToken();
    const assertions = server.tokenCalls.map((call) => call.form.get('client_assertion'));
    expect(assertions).toHaveLength(2);
    expect(assertions[0]).not.toBe(assertions[1]);
  });

  it('asks only once more: a second use_dpop_nonce rejects with that error', async () => {
    server.tokenAnswer = { status: 400, body: { error: 'use_dpop_nonce' }, headers: { 'dpop-nonce': 'n-moving' } };
    const error = await dpopClient()
      .getToken()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenEndpointError);
    expect(error).toMatchObject({ status: 400, error: 'use_dpop_nonce' });
    expect(server.tokenCalls).toHaveLength(2);
  });

  it('does not retry a use_dpop_nonce that gives no nonce, or one that is not a valid nonce', async () => {
    const answers: Array<Record<string, string>> = [{}, { 'dpop-nonce': 'has space' }, { 'dpop-nonce': 'quo"te' }];
    for (const headers of answers) {
      server.tokenCalls.length = 0;
      server.tokenAnswer = { status: 400, body: { error: 'use_dpop_nonce' }, headers };
      const error = await dpopClient()
        .getToken()
        .catch((e: unknown) => e);
      expect({ headers, error }).toMatchObject({ headers, error: { error: 'use_dpop_nonce' } });
      expect({ headers, calls: server.tokenCalls.length }).toEqual({ headers, calls: 1 });
    }
  });

  it('refuses a DPoP token it did not ask for: without a key it could never be used', async () => {
    server.tokenAnswer = { status: 200, body: { access_token: 'x', token_type: 'DPoP', expires_in: 900 } };
    const client = createTokenClient({ tokenUrl: server.tokenUrl, clientId: 'cli_1', clientSecret: 's' });
    const error = await client.getToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect(error).toMatchObject({ kind: 'invalid_response', status: 200 });
  });

  it('throws a TypeError at construction for a key pair with its halves swapped or an unknown alg', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    expect(() => dpopClient({ dpop: { publicKey: privateKey, privateKey: publicKey, alg: 'ES256' } })).toThrow(
      'dpop.privateKey must be a private key',
    );
    expect(() => dpopClient({ dpop: { publicKey, privateKey: privateKey, alg: 'HS256' as 'ES256' } })).toThrow(
      'dpop.alg must be one of',
    );
  });
});

describe('tokengate/client with DPoP: API calls', () => {
  it('sends Authorization: DPoP and a fresh proof per call: htm, htu without query or fragment, ath, iat, jti', async () => {
    const client = dpopClient();
    const token = await client.getToken();
    const url = `${server.apiUrl}/x?q=1+george#frag`;
    expect((await client.fetch(url)).status).toBe(200);
    expect((await client.fetch(url, { method: 'post', body: 'b' })).status).toBe(200);
    const [get, post] = server.apiCalls;
    expect(get?.authorization).toBe(`DPoP ${token}`);
    expect(get?.proof?.payload).toMatchObject({ htm: 'GET', htu: `${server.apiUrl}/x`, ath: accessTokenHash(token) });
    expect(post?.proof?.payload).toMatchObject({ htm: 'POST', htu: `${server.apiUrl}/x` });
    expect(Math.abs((get?.proof?.payload.iat ?? 0) - Date.now() / 1000)).toBeLessThan(5);
    expect(get?.proof?.payload.jti).not.toBe(post?.proof?.payload.jti);
    expect(get?.proof?.header.jwk).toEqual(server.tokenCalls[0]?.proof?.header.jwk);
  });

  it('retries once with the resource\'s nonce on 401 DPoP error="use_dpop_nonce", then sends it at once', async () => {
    server.apiNonce = 'n-api-1';
    const client = dpopClient();
    expect((await client.fetch(server.apiUrl)).status).toBe(200);
    expect((await client.fetch(server.apiUrl)).status).toBe(200);
    expect(server.apiCalls.map((call) => call.proof?.payload.nonce)).toEqual([undefined, 'n-api-1', 'n-api-1']);
    expect(server.tokenCalls).toHaveLength(1);
  });

  it('takes the latest nonce a server hands out with any answer', async () => {
    const client = dpopClient();
    server.announceNonce = 'n-from-token-answer';
    await client.fetch(server.apiUrl);
    server.announceNonce = 'n-rotated';
    await client.fetch(server.apiUrl);
    await client.fetch(server.apiUrl);
    expect(server.apiCalls.map((call) => call.proof?.payload.nonce)).toEqual([
      'n-from-token-answer',
      'n-from-token-answer',
      'n-rotated',
    ]);
  });

  it("keeps nonces per origin: the issuer's nonce never goes to an API on another origin", async () => {
    const api = await startDpopServer({ tokens: server.tokens });
    try {
      server.tokenNonce = 'n-issuer';
      api.apiNonce = 'n-api';
      const client = dpopClient();
      expect((await client.fetch(api.apiUrl)).status).toBe(200);
      await client.getToken();
      client.invalidate();
      await client.getToken();
      expect(api.apiCalls.map((call) => call.proof?.payload.nonce)).toEqual([undefined, 'n-api']);
      expect(server.tokenCalls.map((call) => call.proof?.payload.nonce)).toEqual([undefined, 'n-issuer', 'n-issuer']);
    } finally {
      await api.close();
    }
  });

  it('answers a second use_dpop_nonce as it is, and does not resend a streamed body', async () => {
    const client = dpopClient();
    await client.getToken();
    server.apiNonce = 'n-api';
    server.rotateApiNonce = true;
    const moving = await client.fetch(server.apiUrl);
    expect(moving.status).toBe(401);
    expect(server.apiCalls.map((call) => call.proof?.payload.nonce)).toEqual([undefined, 'n-api']);

    server.rotateApiNonce = false;
    server.apiCalls.length = 0;
    server.apiNonce = 'n-other';
    const body = Readable.toWeb(Readable.from(['chunk'])) as ReadableStream;
    const streamed = await client.fetch(server.apiUrl, { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(401);
    expect(server.apiCalls).toHaveLength(1);
  });

  it('gets a fresh token and proof on a 1030, as for a Bearer token', async () => {
    const client = dpopClient();
    const first = await client.getToken();
    server.expired.add(first);
    const res = await client.fetch(server.apiUrl);
    expect(res.status).toBe(200);
    const second = await client.getToken();
    expect(second).not.toBe(first);
    expect(server.apiCalls.map((call) => call.authorization)).toEqual([`DPoP ${first}`, `DPoP ${second}`]);
  });

  it('presents a Bearer token as Bearer, with no proof, when the issuer does not bind tokens', async () => {
    server.tokenType = 'Bearer';
    const client = dpopClient();
    const token = await client.getToken();
    const res = await client.fetch(server.apiUrl);
    expect(await res.json()).toMatchObject({ success: true, scheme: 'Bearer' });
    expect(server.apiCalls[0]).toMatchObject({ authorization: `Bearer ${token}`, proof: undefined });
  });
});
