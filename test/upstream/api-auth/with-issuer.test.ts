import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '#auth';
import { createLogger, sendJson } from '#common';
import { createIssuer, type Issuer } from '#issuer';
import { openStore, type Store } from '#store';
import { migratedDataDir } from '#test/store-template.ts';
import { createFakeClock } from '#test/fake-clock.ts';
import { createTokenClient, TokenEndpointError } from '../../../src/client/index.ts';
import { createApiAuthenticator } from '../../../src/upstream/api-auth/index.ts';
import { ROUTES } from './harness.ts';

/**
 * The two halves of this brief against the real issuer: tokens from its token endpoint, obtained
 * by the client library, checked by the upstream authenticator over the issuer's own keys and
 * revocations (what `startUpstream` composes).
 */
const PHONE = '/api/phone/v1/verification';
const serverClock = createFakeClock(Date.now());
let server: Server;
let base: string;
let store: Store;
let issuer: Issuer;
let dataDir: string;
let projectId: string;
let credentials: { clientId: string; clientSecret: string };

beforeAll(async () => {
  dataDir = await migratedDataDir('tg-apiauth-issuer-');
  const log = createLogger({ level: 'silent' });
  store = await openStore({ dataDir });
  let handler: Parameters<typeof createServer>[1] = (_req, res) => res.end();
  server = createServer((req, res) => handler?.(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = { issuer: base, audience: base, algorithm: 'RS256' as const, feedToken: 'feed-token-for-test' };
  issuer = await createIssuer({ store, config, log, clock: serverClock });
  const verifier = createVerifier({
    issuer: base,
    audience: base,
    algorithms: ['RS256'],
    keys: issuer.keyResolver,
    revocations: issuer.revocationChecker,
    clock: serverClock,
  });
  const auth = createApiAuthenticator({ verifier, store, log, clock: serverClock, cacheTtlMs: 0 });
  handler = async (req, res) => {
    if (await issuer.handle(req, res)) return;
    const url = new URL(req.url ?? '/', base);
    const route = ROUTES[url.pathname];
    if (!route) return sendJson(res, 404, {});
    const result = await auth.authenticate(req, url.searchParams, route);
    if (result.ok) sendJson(res, 200, { projectId: result.projectId, via: result.via });
    else sendJson(res, result.status, result.body, result.headers);
  };
  projectId = (await store.createProject({ name: 'acme', plan: 'business' })).id;
  const created = await issuer.createClient({ projectId, name: 'backend', scopes: ['address', 'phone'] });
  credentials = { clientId: created.client.clientId, clientSecret: created.clientSecret };
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await issuer.close();
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

function client(scopes: Array<'address' | 'phone' | 'email'> = ['phone']) {
  return createTokenClient({
    tokenUrl: `${base}/oauth/token`,
    ...credentials,
    scopes,
    clock: createFakeClock(Date.now()),
  });
}

describe('the client library and the upstream authenticator with the real issuer', () => {
  it('obtains a token with only the asked scope and calls the API with it', async () => {
    const c = client(['phone']);
    const res = await c.fetch(`${base}${PHONE}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ projectId, via: 'bearer' });
    const payload = JSON.parse(Buffer.from((await c.getToken()).split('.')[1] ?? '', 'base64url').toString());
    expect(payload.scope).toBe('phone');
  });

  it('gets 1026 from the upstream for a route outside the token scopes', async () => {
    const res = await client(['phone']).fetch(`${base}/api/au/address/autocomplete?q=x`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ completions: [], error_code: '1026' });
  });

  it('retries once with a fresh token when the server clock says the cached token expired (1030)', async () => {
    const c = client();
    const first = await c.getToken();
    serverClock.advanceSec(900 + 60); // past exp and the verifier's 5 s tolerance
    const res = await c.fetch(`${base}${PHONE}`);
    expect(res.status).toBe(200);
    expect(await c.getToken()).not.toBe(first);
  });

  it('reports invalid_scope from the real token endpoint as a typed error', async () => {
    const error = await client(['email'])
      .getToken()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenEndpointError);
    expect(error).toMatchObject({ status: 400, error: 'invalid_scope' });
  });

  it('sees 1024 for a token the issuer revoked, and the client replaces it once with a fresh one', async () => {
    const c = client();
    const token = await c.getToken();
    expect((await c.fetch(`${base}${PHONE}`)).status).toBe(200);
    await issuer.revokeToken(token);
    await expect
      .poll(
        async () =>
          (await (await fetch(`${base}${PHONE}`, { headers: { authorization: `Bearer ${token}` } })).json()) as unknown,
        { timeout: 1000 },
      )
      .toMatchObject({ error_code: '1024', message: 'OAuth key has been revoked' });
    expect((await c.fetch(`${base}${PHONE}`)).status).toBe(200);
    expect(await c.getToken()).not.toBe(token);
  });

  it('answers 1025 for a live token once its project is deleted', async () => {
    const c = client();
    expect((await c.fetch(`${base}${PHONE}`)).status).toBe(200);
    await store.deleteProject(projectId);
    const res = await c.fetch(`${base}${PHONE}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      message: 'Project not found for bearer token',
      error_code: '1025',
      success: false,
    });
  });

  it('keeps telling a busy caller of a disabled client invalid_client for a minute, instead of running into the issuer limit of 10 failures (429)', async () => {
    // Regression: each call sent a token request; from the 11th in a minute the issuer answered 429 temporarily_unavailable.
    const project = await store.createProject({ name: 'disabled-client', plan: 'business' });
    const created = await issuer.createClient({ projectId: project.id, name: 'backend', scopes: ['phone'] });
    await issuer.setClientEnabled(created.client.clientId, false);
    const clock = createFakeClock(Date.now());
    let tokenRequests = 0;
    const counted: typeof fetch = (input, init) => {
      if (String(input).endsWith('/oauth/token')) tokenRequests += 1;
      return fetch(input, init);
    };
    const c = createTokenClient({
      tokenUrl: `${base}/oauth/token`,
      clientId: created.client.clientId,
      clientSecret: created.clientSecret,
      scopes: ['phone'],
      clock,
      fetch: counted,
    });
    for (let second = 0; second < 60; second++) {
      await expect(c.fetch(`${base}${PHONE}`)).rejects.toMatchObject({
        name: 'TokenEndpointError',
        status: 401,
        error: 'invalid_client',
      });
      clock.advanceSec(1);
    }
    expect(tokenRequests).toBe(6);
  });
});
