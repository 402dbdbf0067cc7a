import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenClient, TokenEndpointError } from '../../src/client/index.ts';
import { type ClientKey, clientKey, keySet } from '#test/client-keys.ts';
import { type Harness, decodeJwt, startHarness } from '../issuer/harness.ts';

/** The client library's private_key_jwt against the real issuer over HTTP. */
describe('tokengate/client with a private key instead of a secret', () => {
  let h: Harness;
  let key: ClientKey;
  let clientId: string;
  beforeAll(async () => {
    h = await startHarness();
    key = await clientKey('ES256');
    const project = await h.store.createProject({ name: 'p', plan: 'business' });
    const client = await h.issuer.createKeyClient({
      projectId: project.id,
      name: 'k',
      scopes: ['email'],
      jwks: keySet(key),
    });
    clientId = client.clientId;
  });
  afterAll(() => h.close());

  const signing = (k: ClientKey) => ({ key: k.privateKey, kid: k.kid, alg: k.alg });

  it('gets a token with a signed assertion, and a fresh one (new jti) after invalidate', async () => {
    const client = createTokenClient({ tokenUrl: `${h.url}/oauth/token`, clientId, privateKey: signing(key) });
    const first = await client.getToken();
    expect(decodeJwt(first).payload['client_id']).toBe(clientId);
    client.invalidate();
    const second = await client.getToken();
    expect(second).not.toBe(first);
  });

  it('rejects with invalid_client when the key is not registered for the client', async () => {
    const stranger = { ...(await clientKey('ES256')), kid: key.kid };
    const client = createTokenClient({ tokenUrl: `${h.url}/oauth/token`, clientId, privateKey: signing(stranger) });
    const error = await client.getToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenEndpointError);
    expect(error).toMatchObject({ status: 401, error: 'invalid_client' });
  });

  it('needs exactly one of clientSecret and privateKey', () => {
    const tokenUrl = `${h.url}/oauth/token`;
    expect(() => createTokenClient({ tokenUrl, clientId })).toThrow('exactly one of clientSecret and privateKey');
    expect(() => createTokenClient({ tokenUrl, clientId, clientSecret: 's', privateKey: signing(key) })).toThrow(
      'exactly one',
    );
  });
});
