import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAssertion, clientKey, keySet } from '#test/client-keys.ts';
import { dpopKey, dpopProof } from '#test/dpop.ts';
import { createFakeClock } from '#test/fake-clock.ts';
import { basicHeader, decodeJwt, type Harness, postForm, startHarness } from '../harness.ts';

const ADMIN_TOKEN = 'admin-token-for-introspection-tests-0123456789';
const INTROSPECT = '/oauth/introspect';

/**
 * `POST /oauth/introspect` (RFC 7662) on one issuer over real HTTP and the embedded store: who may
 * call it, what an active token's answer holds, and that every reason a gateway would refuse a
 * token answers `{"active": false}` and nothing more.
 */
describe('the introspection endpoint', () => {
  const clock = createFakeClock(Date.now());
  let h: Harness;
  /** A client holding the introspect permission (a resource server). */
  let rs: { id: string; secret: string };
  beforeAll(async () => {
    h = await startHarness({ clock, config: { adminToken: ADMIN_TOKEN } });
    const project = await h.store.createProject({ name: 'resource servers', plan: 'business' });
    const created = await h.issuer.createClient({
      projectId: project.id,
      name: 'rs',
      scopes: ['phone'],
      introspect: true,
    });
    rs = { id: created.client.clientId, secret: created.clientSecret };
  });
  afterAll(async () => {
    await h?.close();
  });

  const introspect = (
    token: string,
    auth: { basic?: [string, string]; authorization?: string } = { basic: [rs.id, rs.secret] },
    extra: Record<string, string> = {},
  ) => postForm(h.url, { token, ...extra }, { ...auth, path: INTROSPECT });
  const tokenFor = async (client: { id: string; secret: string }, extra: Record<string, string> = {}) => {
    const res = await postForm(
      h.url,
      { grant_type: 'client_credentials', ...extra },
      { basic: [client.id, client.secret] },
    );
    expect(res.status).toBe(200);
    return String(res.json['access_token']);
  };
  /** A fresh business project with one client of scope phone and email, and a token of it. */
  const subject = async () => {
    const { client, secret } = await h.client(['phone', 'email']);
    const c = { id: client.clientId, secret };
    return { client, c, token: await tokenFor(c) };
  };
  const expectInactive = async (token: string) => {
    const res = await introspect(token);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ active: false });
    expect(res.headers.get('cache-control')).toBe('no-store');
  };

  it('answers an active token with its claims (RFC 7662 §2.2), no-store', async () => {
    const { client, token } = await subject();
    const { payload } = decodeJwt(token);
    const res = await introspect(token);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toEqual({
      active: true,
      scope: 'phone email',
      client_id: client.clientId,
      token_type: 'Bearer',
      exp: payload['exp'],
      iat: payload['iat'],
      sub: client.clientId,
      aud: h.url,
      iss: h.url,
      jti: payload['jti'],
    });
  });

  it('accepts token_type_hint and ignores it, whatever it names', async () => {
    const { token } = await subject();
    for (const hint of ['access_token', 'refresh_token', 'something_else'])
      expect((await introspect(token, undefined, { token_type_hint: hint })).json).toMatchObject({ active: true });
  });

  it('answers a DPoP-bound token as type DPoP with its cnf.jkt, without a proof from the caller', async () => {
    const { client, secret } = await h.client(['phone']);
    const key = await dpopKey('ES256');
    const proof = await dpopProof(key, 'POST', `${h.url}/oauth/token`, { nowSec: clock.nowSec() });
    const bound = await fetch(`${h.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basicHeader(client.clientId, secret),
        dpop: proof,
      },
      body: 'grant_type=client_credentials',
    });
    const { access_token: token } = (await bound.json()) as { access_token: string };
    const { cnf } = decodeJwt(token).payload as { cnf: { jkt: string } };
    expect(cnf.jkt).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await introspect(token)).json).toMatchObject({ active: true, token_type: 'DPoP', cnf: { jkt: cnf.jkt } });
  });

  describe('answers {"active": false} and nothing else', () => {
    it('for what is no token of ours: junk, a forged signature, too long, empty-looking', async () => {
      const { token } = await subject();
      const [header, payload] = token.split('.');
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const forged = `${header}.${payload}.${sign('sha256', Buffer.from(`${header}.${payload}`), privateKey).toString('base64url')}`;
      for (const junk of ['x', 'a.b.c', forged, `${token}x`, 'A'.repeat(8000), '%00', ' ']) await expectInactive(junk);
    });

    it('for an expired token', async () => {
      const { token } = await subject();
      clock.advanceSec(900 + 10);
      await expectInactive(token);
    });

    it('for a token revoked by its jti', async () => {
      const { token } = await subject();
      await h.issuer.revokeToken(token);
      await expectInactive(token);
    });

    it('for a token of a client disabled, also once it is enabled again', async () => {
      const { client, token } = await subject();
      await h.issuer.setClientEnabled(client.clientId, false);
      await expectInactive(token);
      await h.issuer.setClientEnabled(client.clientId, true);
      await expectInactive(token);
    });

    it('for a token of a client whose tokens were revoked (its generation raised)', async () => {
      const { client, token } = await subject();
      await h.issuer.revokeClientTokens(client.clientId);
      await expectInactive(token);
    });

    it('for a token of a client that was deleted', async () => {
      const { client, token } = await subject();
      await h.store.deleteClient(client.clientId);
      await expectInactive(token);
    });

    it('for a token whose project was deleted (the gateway answers 1025)', async () => {
      const { client, token } = await subject();
      expect((await introspect(token)).json['active']).toBe(true);
      await h.store.deleteProject(client.projectId);
      await expectInactive(token);
    });

    it('for a token whose account was disabled', async () => {
      const { client, token } = await subject();
      expect((await introspect(token)).json['active']).toBe(true);
      const project = await h.store.getProject(client.projectId);
      await h.store.updateAccount(project?.accountId ?? '', { enabled: false });
      await expectInactive(token);
    });
  });

  describe('who may ask', () => {
    it('refuses a caller without credentials, or with wrong ones, 401 invalid_client with a challenge', async () => {
      const { token } = await subject();
      for (const auth of [
        {},
        { basic: [rs.id, 'wrong'] as [string, string] },
        { basic: ['cli_nobody', 'x'] as [string, string] },
      ]) {
        const res = await introspect(token, auth);
        expect(res.status).toBe(401);
        expect(res.json).toEqual({ error: 'invalid_client', error_description: 'client authentication failed' });
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
      }
    });

    it('refuses a client without the introspect permission 403 unauthorized_client, and lets it in once granted', async () => {
      const { c, token } = await subject();
      const refused = await introspect(token, { basic: [c.id, c.secret] });
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual({
        error: 'unauthorized_client',
        error_description: 'this client may not introspect tokens',
      });
      expect(h.logs()).toContain('introspection refused: the client lacks the permission');
      await h.store.setClientIntrospect(c.id, true);
      expect((await introspect(token, { basic: [c.id, c.secret] })).json['active']).toBe(true);
      await h.store.setClientIntrospect(c.id, false);
      expect((await introspect(token, { basic: [c.id, c.secret] })).status).toBe(403);
    });

    it('authenticates the caller by every method of the token endpoint: Basic, form secret, private_key_jwt', async () => {
      const { token } = await subject();
      const post = await postForm(h.url, { token, client_id: rs.id, client_secret: rs.secret }, { path: INTROSPECT });
      expect(post.json['active']).toBe(true);
      const key = await clientKey('ES256');
      const project = await h.store.createProject({ name: 'jwt rs', plan: 'business' });
      const jwtClient = await h.issuer.createKeyClient({
        projectId: project.id,
        name: 'rs',
        scopes: ['phone'],
        jwks: keySet(key),
        introspect: true,
      });
      for (const aud of [h.url, `${h.url}${INTROSPECT}`]) {
        const assertion = await clientAssertion(key, jwtClient.clientId, aud, clock.nowSec());
        const res = await postForm(
          h.url,
          {
            token,
            client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
            client_assertion: assertion,
          },
          { path: INTROSPECT },
        );
        expect(res.json['active']).toBe(true);
      }
    });

    it('accepts the admin token from loopback, and refuses it from a forwarded address beyond, or a wrong one', async () => {
      const { token } = await subject();
      const ok = await introspect(token, { authorization: `Bearer ${ADMIN_TOKEN}` });
      expect(ok.json['active']).toBe(true);
      const wrong = await introspect(token, { authorization: 'Bearer not-the-admin-token' });
      expect(wrong.status).toBe(401);
      expect(wrong.json['error']).toBe('invalid_client');
      // Behind a trusted proxy (loopback is one by default) the forwarded address decides.
      const remote = await fetch(`${h.url}${INTROSPECT}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Bearer ${ADMIN_TOKEN}`,
          'x-forwarded-for': '203.0.113.7',
        },
        body: new URLSearchParams({ token }),
      });
      expect(remote.status).toBe(401);
      expect(h.logs()).toContain('admin token from beyond loopback');
      const mixed = await introspect(token, { authorization: `Bearer ${ADMIN_TOKEN}` }, { client_id: rs.id });
      expect(mixed.status).toBe(400);
      expect(h.logs()).not.toContain(ADMIN_TOKEN);
    });
  });

  describe('refuses a malformed request', () => {
    it('without a token 400 invalid_request, after authenticating the caller', async () => {
      const res = await postForm(h.url, {}, { basic: [rs.id, rs.secret], path: INTROSPECT });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'invalid_request', error_description: 'token is required' });
    });

    it('with a repeated token, another method, another content type, or a body over the limit', async () => {
      const { token } = await subject();
      const repeated = await postForm(h.url, `token=${token}&token=${token}`, {
        basic: [rs.id, rs.secret],
        path: INTROSPECT,
      });
      expect(repeated.status).toBe(400);
      const get = await fetch(`${h.url}${INTROSPECT}`);
      expect(get.status).toBe(405);
      expect(get.headers.get('allow')).toBe('POST');
      const json = await postForm(h.url, JSON.stringify({ token }), {
        basic: [rs.id, rs.secret],
        path: INTROSPECT,
        contentType: 'application/json',
      });
      expect(json.status).toBe(400);
      const big = await postForm(h.url, { token: 'a'.repeat(9000) }, { basic: [rs.id, rs.secret], path: INTROSPECT });
      expect(big.status).toBe(413);
    });
  });

  it('never writes a token or a secret into the log', async () => {
    const { token } = await subject();
    await introspect(token);
    expect(h.logs()).toContain('token introspected');
    expect(h.logs()).not.toContain(token);
    expect(h.logs()).not.toContain(rs.secret);
  });
});
