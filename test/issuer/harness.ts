import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createVerifier } from '#auth';
import { type Clock, createLogger, type Logger, type Plan, type Scope, systemClock } from '#common';
import { createIssuer, type Issuer, type IssuerConfig } from '#issuer';
import { openStore, type OAuthClient, type Store } from '#store';
import { migratedDataDir } from '#test/store-template.ts';

/**
 * One issuer over real HTTP on loopback (port 0) with the real embedded store, as the upstream
 * hosts it: `issuer.handle` for its paths, `handleFeed` for the revocation feed, 404 otherwise.
 */
export const FEED_TOKEN = 'feed-token-for-tests-0123456789';

export interface Harness {
  readonly url: string;
  readonly issuer: Issuer;
  readonly store: Store;
  readonly config: IssuerConfig;
  /** The store's DATA_DIR; empty for a harness on a store passed in. */
  readonly dataDir: string;
  /** Every log line written so far (the sink). */
  logs(): string;
  /** A new business (or enterprise) project with one client of these scopes. */
  client(scopes: Scope[], plan?: Plan): Promise<{ client: OAuthClient; secret: string }>;
  /** Closes the issuer, the server and (unless passed in) the store; removes a temporary data dir. */
  close(opts?: { keepData?: boolean }): Promise<void>;
}

export interface HarnessOptions {
  clock?: Clock;
  dataDir?: string;
  store?: Store;
  config?: Partial<IssuerConfig>;
}

export function logSink(): { log: Logger; lines: () => string } {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString();
      done();
    },
  });
  return { log: createLogger({ level: 'debug', destination: sink }), lines: () => text };
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  // A replica on another harness's store has no data of its own: copying a store for it cost half a second.
  const dataDir = options.dataDir ?? (options.store ? '' : await migratedDataDir('tokengate-issuer-'));
  const clock = options.clock ?? systemClock;
  const store = options.store ?? (await openStore({ dataDir, clock }));
  const { log, lines } = logSink();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config: IssuerConfig = {
    issuer: url,
    audience: url,
    algorithm: 'RS256',
    feedToken: FEED_TOKEN,
    ...options.config,
  };
  const issuer = await createIssuer({ store, config, log, clock });
  server.on('request', (req, res) => {
    const served = req.url?.startsWith('/internal/revocations')
      ? issuer.handleFeed(req, res).then(() => true)
      : issuer.handle(req, res);
    served.then((ok) => {
      if (!ok) res.writeHead(404).end();
    });
  });
  return {
    url,
    issuer,
    store,
    config,
    dataDir,
    logs: lines,
    async client(scopes, plan = 'business') {
      const project = await store.createProject({ name: 'p', plan });
      const created = await issuer.createClient({ projectId: project.id, name: 'c', scopes });
      return { client: created.client, secret: created.clientSecret };
    },
    async close(opts = {}) {
      await issuer.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      if (!options.store) await store.close();
      if (!opts.keepData && !options.dataDir && dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** POSTs a form body (`Record` or raw string) to the token endpoint or another issuer path. */
/** A harness on the given clock with one client holding `scopes`: the setup several issuer test files share. */
export async function startHarnessWithClient(
  clock: Clock,
  scopes: Scope[],
): Promise<{ h: Harness; id: string; secret: string }> {
  const h = await startHarness({ clock });
  const { client, secret } = await h.client(scopes);
  return { h, id: client.clientId, secret };
}

export async function postForm(
  url: string,
  body: Record<string, string> | string,
  opts: { basic?: [string, string]; authorization?: string; path?: string; contentType?: string } = {},
): Promise<{ status: number; headers: Headers; json: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'content-type': opts.contentType ?? 'application/x-www-form-urlencoded' };
  if (opts.basic) headers['authorization'] = basicHeader(...opts.basic);
  if (opts.authorization) headers['authorization'] = opts.authorization;
  const res = await fetch(url + (opts.path ?? '/oauth/token'), {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : new URLSearchParams(body).toString(),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** RFC 6749 §2.3.1: form-urlencode id and secret, then base64. */
export function basicHeader(id: string, secret: string): string {
  const enc = (s: string) => new URLSearchParams({ v: s }).toString().slice(2);
  return 'Basic ' + Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64');
}

export function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h, p] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(h ?? '', 'base64url').toString()) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(p ?? '', 'base64url').toString()) as Record<string, unknown>,
  };
}

/**
 * The upstream's own verification of a token, over the issuer's key resolver and live
 * revocations (no token cache, so every call sees the current set): 'ok' or the failure kind.
 */
export async function verdictOf(h: Harness, token: string, clock: Clock): Promise<string> {
  const verifier = createVerifier({
    issuer: h.config.issuer,
    audience: h.config.audience,
    algorithms: ['RS256'],
    keys: h.issuer.keyResolver,
    revocations: h.issuer.revocationChecker,
    clock,
    tokenCache: { maxEntries: 0 },
  });
  const decision = await verifier.authorize(`Bearer ${token}`, { scopes: [], match: 'any' });
  return decision.ok ? 'ok' : decision.kind;
}
