import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, type Harness, postForm, startHarness } from './harness.ts';

let h: Harness;
let id: string;
let secret: string;

beforeAll(async () => {
  h = await startHarness();
  const c = await h.client(['address', 'email']);
  id = c.client.clientId;
  secret = c.secret;
});
afterAll(() => h.close());

describe('token endpoint success', () => {
  it('issues a bearer token with no-store headers for form credentials', async () => {
    const res = await postForm(h.url, { grant_type: 'client_credentials', client_id: id, client_secret: secret });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 900,
      scope: 'address email',
    });
  });

  it('issues an RFC 9068 token: at+jwt header with kid, every claim, lifetime equal to expires_in', async () => {
    const res = await postForm(h.url, {
      grant_type: 'client_credentials',
      client_id: id,
      client_secret: secret,
      scope: 'email',
      expires_in: '60',
    });
    const { header, payload } = decodeJwt(String(res.json['access_token']));
    expect(header).toEqual({ alg: 'RS256', typ: 'at+jwt', kid: expect.any(String) });
    expect(payload).toMatchObject({
      iss: h.url,
      aud: h.url,
      sub: id,
      client_id: id,
      scope: 'email',
      jti: expect.any(String),
    });
    expect(payload['project_id']).toMatch(/^prj_/);
    expect(Number(payload['exp']) - Number(payload['iat'])).toBe(60);
    expect(Math.abs(Number(payload['iat']) - Date.now() / 1000)).toBeLessThan(5);
    expect(res.json['expires_in']).toBe(60);
  });

  it('gives every token a fresh jti', async () => {
    const form = { grant_type: 'client_credentials', client_id: id, client_secret: secret };
    const jtis = new Set<unknown>();
    for (let i = 0; i < 20; i++)
      jtis.add(decodeJwt(String((await postForm(h.url, form)).json['access_token'])).payload['jti']);
    expect(jtis.size).toBe(20);
  });
});
