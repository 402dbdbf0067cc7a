import { join } from 'node:path';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '#common';
import { loadGatewayConfig, type RunningGateway, startGateway } from '#gateway';
import { clientKey, keySet } from '#test/client-keys.ts';
import { freePort } from '#test/stack.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';

type Json = Record<string, unknown>;

/**
 * openid-client (an independent implementation of RFC 7662 and RFC 8414 discovery) introspects
 * tokengate's tokens through a gateway running the shipped route map, in front of a real upstream.
 */
describe('openid-client introspects tokens through the gateway', () => {
  let up: TestUpstream;
  let gateway: RunningGateway;
  let base: string;
  let projectId: string;
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    up = await startTestUpstream({ env: { PUBLIC_URL: base } });
    const env = {
      GATEWAY_PORT: String(port),
      METRICS_PORT: '0',
      UPSTREAM_URL: up.upstream.url,
      PUBLIC_URL: base,
      REVOCATION_FEED_TOKEN: up.upstream.feedToken.value,
    };
    const config = loadGatewayConfig(join(import.meta.dirname, '..', '..', 'config', 'gateway.yaml'), env);
    gateway = await startGateway(config, { log: createLogger({ level: 'silent' }) });
    await gateway.ready();
    const project = await up.admin('POST', '/projects', { name: 'introspection', plan: 'business' });
    projectId = String((project.body as Json)['id']);
  }, 120_000);
  afterAll(async () => {
    await gateway?.close();
    await up?.destroy();
  });

  const createClient = async (body: Json) => {
    const res = await up.admin('POST', `/projects/${projectId}/clients`, { scopes: ['phone'], ...body });
    expect(res.status).toBe(201);
    return res.body as { client_id: string; client_secret?: string; introspect: boolean };
  };
  const discover = (clientId: string, auth: oidc.ClientAuth) =>
    oidc.discovery(new URL(base), clientId, undefined, auth, {
      algorithm: 'oauth2',
      execute: [oidc.allowInsecureRequests],
    });
  /** A client that only gets tokens, and one of its tokens, through openid-client too. */
  const subjectToken = async (name: string) => {
    const subject = await createClient({ name });
    const config = await discover(subject.client_id, oidc.ClientSecretBasic(subject.client_secret));
    const token = (await oidc.clientCredentialsGrant(config, { scope: 'phone' })).access_token;
    return { subject, token };
  };

  it('finds the endpoint in the metadata and reads an active token, then inactive once revoked', async () => {
    const rs = await createClient({ name: 'rs basic', introspect: true });
    expect(rs.introspect).toBe(true);
    const config = await discover(rs.client_id, oidc.ClientSecretBasic(rs.client_secret));
    expect(config.serverMetadata().introspection_endpoint).toBe(`${base}/oauth/introspect`);
    expect(config.serverMetadata()['introspection_endpoint_auth_methods_supported']).toContain('private_key_jwt');
    const { subject, token } = await subjectToken('subject one');
    const active = await oidc.tokenIntrospection(config, token, { token_type_hint: 'access_token' });
    expect(active).toMatchObject({
      active: true,
      client_id: subject.client_id,
      sub: subject.client_id,
      scope: 'phone',
      token_type: 'Bearer',
      iss: base,
      aud: base,
    });
    expect(active.exp).toBeGreaterThan(Math.floor(Date.now() / 1000));
    expect((await up.admin('POST', '/tokens/revoke', { token })).status).toBe(200);
    expect(await oidc.tokenIntrospection(config, token)).toEqual({ active: false });
  });

  it('authenticates a resource server with private_key_jwt, and reads a DPoP-bound token with its cnf', async () => {
    const key = await clientKey('ES256');
    const rs = await createClient({ name: 'rs jwt', auth: 'private_key_jwt', jwks: keySet(key), introspect: true });
    const config = await discover(rs.client_id, oidc.PrivateKeyJwt({ key: key.privateKey, kid: key.kid }));
    const subject = await createClient({ name: 'subject dpop' });
    const subjectConfig = await discover(subject.client_id, oidc.ClientSecretBasic(subject.client_secret));
    const handle = oidc.getDPoPHandle(subjectConfig, await oidc.randomDPoPKeyPair('ES256'));
    const bound = await oidc.clientCredentialsGrant(subjectConfig, { scope: 'phone' }, { DPoP: handle });
    expect(bound.token_type.toLowerCase()).toBe('dpop');
    const answer = await oidc.tokenIntrospection(config, bound.access_token);
    expect(answer).toMatchObject({ active: true, token_type: 'DPoP', client_id: subject.client_id });
    expect((answer.cnf as { jkt?: string } | undefined)?.jkt).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('is refused to a client without the permission (403 unauthorized_client), and allowed once granted', async () => {
    const plain = await createClient({ name: 'not a resource server' });
    const config = await discover(plain.client_id, oidc.ClientSecretBasic(plain.client_secret));
    const { token } = await subjectToken('subject two');
    const refusal = await oidc.tokenIntrospection(config, token).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(oidc.ResponseBodyError);
    expect(refusal).toMatchObject({ status: 403, error: 'unauthorized_client' });
    expect((await up.admin('POST', `/clients/${plain.client_id}/introspect`, { allowed: true })).status).toBe(200);
    expect(await oidc.tokenIntrospection(config, token)).toMatchObject({ active: true });
  });

  it('answers the operator’s admin token sent from loopback through the gateway', async () => {
    const { token } = await subjectToken('subject three');
    const res = await fetch(`${base}/oauth/introspect`, {
      method: 'POST',
      headers: { authorization: `Bearer ${up.adminToken}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ active: true, scope: 'phone' });
    const wrong = await fetch(`${base}/oauth/introspect`, {
      method: 'POST',
      headers: { authorization: 'Bearer nope', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }),
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'invalid_client', error_description: 'client authentication failed' });
  });
});
