import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createVerifier } from '#auth';
import { createLogger, generateSecret, hashSecret, type Scope, sendJson } from '#common';
import { openStore, type Store } from '#store';
import { migratedDataDir } from '#test/store-template.ts';
import type { ValidationRoute } from '#validation';
import { createApiAuthenticator } from '../../../src/upstream/api-auth/index.ts';
import { createFakeClock, type FakeClock } from '#test/fake-clock.ts';
import {
  createTokenKit,
  simpleRevocations,
  staticKeys,
  TEST_AUDIENCE,
  TEST_ISSUER,
  type TokenKit,
} from '#test/tokens.ts';

/** Two routes of the real route table: autocomplete (with `completions: []`) and phone. */
export const ROUTES: Record<string, ValidationRoute> = {
  '/api/au/address/autocomplete': {
    path: '/api/au/address/autocomplete',
    scope: 'address',
    errorExtra: { completions: [] },
    handle: () => ({ status: 200, body: {} }),
  },
  '/api/phone/v1/verification': {
    path: '/api/phone/v1/verification',
    scope: 'phone',
    errorExtra: {},
    handle: () => ({ status: 200, body: {} }),
  },
};

export interface Harness {
  readonly url: string;
  readonly store: Store;
  /** The shared named token builders (test/helpers/tokens.ts), signed with the key the verifier holds. */
  readonly kit: TokenKit;
  readonly revocations: ReturnType<typeof simpleRevocations>;
  readonly clock: FakeClock;
  /** A real token for `projectId` holding `scopes`. */
  token(projectId: string, scopes: readonly Scope[], claims?: Record<string, unknown>): Promise<string>;
  /** Every log line written so far, as text. */
  logText(): string;
  /** A project with an API key; the secret is returned once, as the admin API does. */
  projectWithKey(plan?: 'free' | 'business'): Promise<{ projectId: string; key: string; secret: string }>;
  call(
    path: string,
    params?: Record<string, string | string[]>,
    authorization?: string,
  ): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  cacheTtlMs?: number;
  /** Wraps the store the authenticator sees (counting, failing). */
  storeOverride?: (store: Store) => Store;
  /** Reuse an open store (left open on close) instead of opening a fresh embedded one: opening costs seconds. */
  sharedStore?: Store;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const clock = createFakeClock();
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const log = createLogger({ level: 'debug', destination: sink });
  const dataDir = options.sharedStore ? undefined : await migratedDataDir('tg-apiauth-');
  const store = options.sharedStore ?? (await openStore({ dataDir: dataDir ?? '' }));
  const kit = await createTokenKit(clock);
  const revocations = simpleRevocations();
  const verifier = createVerifier({
    issuer: TEST_ISSUER,
    audience: TEST_AUDIENCE,
    algorithms: ['RS256'],
    keys: staticKeys(kit.key),
    revocations,
    clock,
  });
  const auth = createApiAuthenticator({
    verifier,
    store: options.storeOverride ? options.storeOverride(store) : store,
    log,
    clock,
    ...(options.cacheTtlMs !== undefined ? { cacheTtlMs: options.cacheTtlMs } : {}),
  });

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const route = ROUTES[url.pathname];
    if (!route) return sendJson(res, 404, {});
    const result = await auth.authenticate(req, url.searchParams, route);
    if (result.ok) sendJson(res, 200, { projectId: result.projectId, via: result.via, scopes: result.scopes });
    else sendJson(res, result.status, result.body, result.headers);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    store,
    kit,
    revocations,
    clock,
    token: (projectId, scopes, claims = {}) =>
      kit.tokenWithScopes(scopes, { claims: { project_id: projectId, ...claims } }),
    logText: () => lines.join(''),
    async projectWithKey(plan = 'business') {
      const project = await store.createProject({ name: 'acme', plan });
      const secret = generateSecret();
      const apiKey = await store.createApiKey({ projectId: project.id, secretHash: hashSecret(secret) });
      return { projectId: project.id, key: apiKey.key, secret };
    },
    async call(path, params = {}, authorization) {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(params)) for (const v of [value].flat()) query.append(name, v);
      const res = await fetch(`${url}${path}?${query}`, {
        headers: authorization !== undefined ? { authorization } : {},
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (dataDir === undefined) return;
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
