import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, postForm, startHarness } from './harness.ts';

let h: Harness;
let id: string;
let secret: string;

beforeAll(async () => {
  h = await startHarness();
  ({
    client: { clientId: id },
    secret,
  } = await h.client(['address', 'phone']));
});
afterAll(() => h.close());

describe('interoperability with standard libraries', () => {
  it('openid-client discovers the issuer (RFC 8414) and obtains a token with client_secret_basic', async () => {
    const config = await client.discovery(new URL(h.url), id, undefined, client.ClientSecretBasic(secret), {
      algorithm: 'oauth2',
      execute: [client.allowInsecureRequests],
    });
    const response = await client.clientCredentialsGrant(config, { scope: 'phone' });
    expect(response.token_type.toLowerCase()).toBe('bearer');
    expect(response.scope).toBe('phone');
    expect(response.expires_in).toBe(900);

    const jwks = createRemoteJWKSet(new URL(String(config.serverMetadata().jwks_uri)));
    const { payload, protectedHeader } = await jwtVerify(response.access_token, jwks, {
      issuer: config.serverMetadata().issuer,
      audience: h.config.audience,
      typ: 'at+jwt',
      algorithms: ['RS256'],
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({ sub: id, client_id: id, scope: 'phone' });
  });

  it('openid-client obtains a token with client_secret_post too', async () => {
    const config = await client.discovery(new URL(h.url), id, undefined, client.ClientSecretPost(secret), {
      algorithm: 'oauth2',
      execute: [client.allowInsecureRequests],
    });
    const response = await client.clientCredentialsGrant(config);
    expect(response.scope).toBe('address phone');
  });
});

describe('logs', () => {
  it('never contain a client secret or an issued token, though both passed through the issuer', async () => {
    const res = await postForm(h.url, { grant_type: 'client_credentials', client_id: id, client_secret: secret });
    const token = String(res.json['access_token']);
    await postForm(h.url, { token }, { path: '/oauth/revoke', basic: [id, secret] });
    await postForm(h.url, { grant_type: 'client_credentials', client_id: id, client_secret: `${secret}x` });
    await h.issuer.revokeToken(token);
    const logs = h.logs();
    expect(logs).toContain('token issued');
    expect(logs).toContain('client authentication failed');
    expect(logs).not.toContain(secret);
    expect(logs).not.toContain(token);
    expect(logs).not.toContain(token.split('.')[2]);
  });
});
