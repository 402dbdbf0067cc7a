import { calculateJwkThumbprint, decodeJwt, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenClient } from '../../src/client/index.ts';
import { clientKey, keySet } from '#test/client-keys.ts';
import { type GatewayRig, startGatewayRig } from './gateway-rig.ts';

const PHONE_PATH = '/api/phone/v1/verification';
const PHONE = `${PHONE_PATH}?phone_number=0412345678&default_country_code=AU`;

/** tokengate/client with DPoP and private_key_jwt against the real issuer, through the real gateway. */
describe('tokengate/client with DPoP through the gateway', () => {
  let rig: GatewayRig;
  beforeAll(async () => {
    rig = await startGatewayRig();
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('gets a token bound to its key with a private key and a proof, and calls the API with a fresh proof each time', async () => {
    const signing = await clientKey('ES256');
    const created = await rig.createClient({
      scopes: ['phone'],
      auth: 'private_key_jwt',
      jwks: keySet(signing),
      require_dpop: true,
    });
    const dpop = { ...(await generateKeyPair('ES256')), alg: 'ES256' as const };
    const client = createTokenClient({
      tokenUrl: rig.tokenUrl,
      clientId: created.client_id,
      privateKey: { key: signing.privateKey, kid: signing.kid, alg: signing.alg },
      dpop,
    });
    const token = await client.getToken();
    const jkt = await calculateJwkThumbprint(await exportJWK(dpop.publicKey));
    expect(decodeJwt(token)['cnf']).toEqual({ jkt });
    for (let call = 0; call < 3; call++) {
      const res = await client.fetch(`${rig.gatewayUrl}${PHONE}`);
      expect({ call, status: res.status }).toEqual({ call, status: 200 });
      expect(await res.json()).toMatchObject({ success: true });
    }
  });

  it('with a secret and a generated key, a client that must use DPoP gets its token and calls the API', async () => {
    const created = await rig.createClient({ scopes: ['phone'], require_dpop: true });
    const client = createTokenClient({
      tokenUrl: rig.tokenUrl,
      clientId: created.client_id,
      clientSecret: created.client_secret ?? '',
      dpop: true,
    });
    expect(decodeJwt(await client.getToken())['cnf']).toHaveProperty('jkt');
    const res = await client.fetch(`${rig.gatewayUrl}${PHONE}`, { method: 'GET' });
    expect(res.status).toBe(200);
  });
});

describe('tokengate/client where the issuer and the gateway require DPoP nonces', () => {
  let rig: GatewayRig;
  beforeAll(async () => {
    rig = await startGatewayRig({ dpopNonce: 'required' });
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('retries a token request and an API call once each with the nonce given, and sends the latest at once', async () => {
    const created = await rig.createClient({ scopes: ['phone'], require_dpop: true });
    const answers: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      answers.push(`${new URL(String(input)).pathname} ${res.status}`);
      return res;
    };
    const client = createTokenClient({
      tokenUrl: rig.tokenUrl,
      clientId: created.client_id,
      clientSecret: created.client_secret ?? '',
      dpop: true,
      fetch: recording,
    });
    expect(decodeJwt(await client.getToken())['cnf']).toHaveProperty('jkt');
    client.invalidate();
    await client.getToken();
    expect(answers.splice(0)).toEqual(['/oauth/token 400', '/oauth/token 200', '/oauth/token 200']);

    // The gateway signs nonces with another secret: the issuer's is refused once, then its own goes at once.
    expect((await client.fetch(`${rig.gatewayUrl}${PHONE}`)).status).toBe(200);
    expect((await client.fetch(`${rig.gatewayUrl}${PHONE}`)).status).toBe(200);
    expect(answers.splice(0)).toEqual([`${PHONE_PATH} 401`, `${PHONE_PATH} 200`, `${PHONE_PATH} 200`]);
  });
});
