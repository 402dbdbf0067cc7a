import { calculateJwkThumbprint, decodeJwt, exportJWK } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientKey, keySet } from '#test/client-keys.ts';
import { type DpopKey, dpopKey, dpopProof } from '#test/dpop.ts';
import { type GatewayRig, startGatewayRig } from './gateway-rig.ts';

type Json = Record<string, unknown>;
const PHONE_PATH = '/api/phone/v1/verification';
const PHONE_QUERY = '?phone_number=0412345678&default_country_code=AU';

/**
 * Interop with a client nobody here wrote (issue 23): openid-client discovers tokengate through
 * the gateway, authenticates with private_key_jwt, gets a DPoP-bound token from the real issuer
 * and calls the validation API through the real gateway. Then the token from that exchange is
 * replayed the ways a thief without the key could, each refused with its documented 401.
 */
describe('openid-client with private_key_jwt and DPoP through the gateway', () => {
  let rig: GatewayRig;
  let config: oidc.Configuration;
  let keyPair: oidc.CryptoKeyPair;
  let handle: oidc.DPoPHandle;
  let token: string;
  /** The requests openid-client sent, as they went on the wire. */
  const sent: Array<{ url: string; headers: Headers }> = [];

  beforeAll(async () => {
    rig = await startGatewayRig();
    const signing = await clientKey('ES256');
    const created = await rig.createClient({
      scopes: ['phone', 'email'],
      auth: 'private_key_jwt',
      jwks: keySet(signing),
      require_dpop: true,
    });
    config = await oidc.discovery(
      new URL(rig.gatewayUrl),
      created.client_id,
      undefined,
      oidc.PrivateKeyJwt({ key: signing.privateKey, kid: signing.kid }),
      { algorithm: 'oauth2', execute: [oidc.allowInsecureRequests] },
    );
    config[oidc.customFetch] = (url, options) => {
      sent.push({ url, headers: new Headers(options.headers) });
      return fetch(url, options as RequestInit);
    };
    keyPair = await oidc.randomDPoPKeyPair('ES256');
    handle = oidc.getDPoPHandle(config, keyPair);
    const response = await oidc.clientCredentialsGrant(config, { scope: 'phone' }, { DPoP: handle });
    expect(response.token_type.toLowerCase()).toBe('dpop');
    token = response.access_token;
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
  });

  /** The key openid-client holds, for proofs a test makes itself. */
  const clientsKey = async (): Promise<DpopKey> => {
    const publicJwk = (await exportJWK(keyPair.publicKey)) as Record<string, unknown>;
    return { alg: 'ES256', publicJwk, privateKey: keyPair.privateKey, jkt: await calculateJwkThumbprint(publicJwk) };
  };
  const phoneUrl = () => `${rig.gatewayUrl}${PHONE_PATH}${PHONE_QUERY}`;
  const call = async (headers: Record<string, string>) => {
    const res = await fetch(phoneUrl(), { headers });
    return {
      status: res.status,
      challenge: res.headers.get('www-authenticate') ?? '',
      body: (await res.json()) as Json,
    };
  };
  const expectRefused = (res: Awaited<ReturnType<typeof call>>, code: string, error: string) => {
    expect({ status: res.status, code: res.body['error_code'], success: res.body['success'] }).toEqual({
      status: 401,
      code,
      success: false,
    });
    expect(res.challenge).toMatch(new RegExp(`^DPoP realm="tokengate", algs="[^"]*", error="${error}"`));
  };

  it("signed its client assertion with the private key and sent a proof: the token is bound to openid-client's key", async () => {
    const tokenRequest = sent.find((request) => request.url === `${rig.gatewayUrl}/oauth/token`);
    expect(tokenRequest?.headers.get('dpop')).toBeTruthy();
    expect(decodeJwt(token)['cnf']).toEqual({ jkt: (await clientsKey()).jkt });
  });

  it('calls the validation API with fetchProtectedResource and its DPoP handle', async () => {
    const res = await oidc.fetchProtectedResource(config, token, new URL(phoneUrl()), 'GET', undefined, undefined, {
      DPoP: handle,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true });
    const request = sent.at(-1);
    expect(request?.headers.get('authorization')).toBe(`DPoP ${token}`);
    expect(decodeJwt(request?.headers.get('dpop') ?? '')).toMatchObject({ htm: 'GET' });
  });

  it('refuses the token replayed as Bearer (1024, with the DPoP challenge)', async () => {
    const res = await call({ authorization: `Bearer ${token}` });
    expect({ status: res.status, code: res.body['error_code'] }).toEqual({ status: 401, code: '1024' });
    expect(res.challenge).toMatch(/^DPoP realm="tokengate", algs="[^"]+", error="invalid_token"/);
  });

  it('refuses the token replayed as DPoP without a proof (1027)', async () => {
    expectRefused(await call({ authorization: `DPoP ${token}` }), '1027', 'invalid_dpop_proof');
  });

  it("refuses the token with a proof by another key than openid-client's (1027)", async () => {
    const proof = await dpopProof(await dpopKey('ES256'), 'GET', `${rig.gatewayUrl}${PHONE_PATH}`, { token });
    expectRefused(await call({ authorization: `DPoP ${token}`, dpop: proof }), '1027', 'invalid_dpop_proof');
  });

  it('refuses a proof openid-client sent, replayed with its token (1027)', async () => {
    const res = await oidc.fetchProtectedResource(config, token, new URL(phoneUrl()), 'GET', undefined, undefined, {
      DPoP: handle,
    });
    expect(res.status).toBe(200);
    const original = sent.at(-1);
    const replayed = await call({
      authorization: original?.headers.get('authorization') ?? '',
      dpop: original?.headers.get('dpop') ?? '',
    });
    expectRefused(replayed, '1027', 'invalid_dpop_proof');
  });

  it("refuses a proof by openid-client's key for another URL (1027)", async () => {
    const proof = await dpopProof(await clientsKey(), 'GET', `${rig.gatewayUrl}/api/email/v1/verification`, { token });
    expectRefused(await call({ authorization: `DPoP ${token}`, dpop: proof }), '1027', 'invalid_dpop_proof');
  });

  it("refuses a proof by openid-client's key for another method (1027)", async () => {
    const proof = await dpopProof(await clientsKey(), 'POST', `${rig.gatewayUrl}${PHONE_PATH}`, { token });
    expectRefused(await call({ authorization: `DPoP ${token}`, dpop: proof }), '1027', 'invalid_dpop_proof');
  });

  it("accepts a fresh proof by openid-client's key for this URL and method, so the refusals are the proofs'", async () => {
    const proof = await dpopProof(await clientsKey(), 'GET', `${rig.gatewayUrl}${PHONE_PATH}`, { token });
    const res = await call({ authorization: `DPoP ${token}`, dpop: proof });
    expect(res.status).toBe(200);
  });
});

describe('openid-client where the issuer and the gateway require DPoP nonces', () => {
  let rig: GatewayRig;
  beforeAll(async () => {
    rig = await startGatewayRig({ dpopNonce: 'required' });
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('gets its token and calls the API, each after one use_dpop_nonce answered with the DPoP-Nonce given', async () => {
    const signing = await clientKey('ES256');
    const created = await rig.createClient({ scopes: ['phone'], auth: 'private_key_jwt', jwks: keySet(signing) });
    const config = await oidc.discovery(
      new URL(rig.gatewayUrl),
      created.client_id,
      undefined,
      oidc.PrivateKeyJwt({ key: signing.privateKey, kid: signing.kid }),
      { algorithm: 'oauth2', execute: [oidc.allowInsecureRequests] },
    );
    const answers: string[] = [];
    config[oidc.customFetch] = async (url, options) => {
      const res = await fetch(url, options as RequestInit);
      answers.push(`${new URL(url).pathname} ${res.status}`);
      return res;
    };
    const handle = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
    const response = await oidc.clientCredentialsGrant(config, { scope: 'phone' }, { DPoP: handle });
    expect(response.token_type.toLowerCase()).toBe('dpop');
    const phone = new URL(`${rig.gatewayUrl}${PHONE_PATH}${PHONE_QUERY}`);
    const res = await oidc.fetchProtectedResource(config, response.access_token, phone, 'GET', undefined, undefined, {
      DPoP: handle,
    });
    expect(res.status).toBe(200);
    expect(answers).toEqual(['/oauth/token 400', '/oauth/token 200', `${PHONE_PATH} 401`, `${PHONE_PATH} 200`]);
  });
});
