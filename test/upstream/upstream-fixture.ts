import { rm } from 'node:fs/promises';
import { createLogger } from '#common';
import { loadUpstreamConfig, startUpstream, type Upstream, type UpstreamOptions } from '#upstream';
import { migratedDataDir, storelessDataDir } from '#test/store-template.ts';

/**
 * A real upstream (embedded store, issuer, public and admin servers) on loopback port 0 with a
 * temporary DATA_DIR, its log captured in memory so tests can assert what it never contains.
 */
export interface TestUpstream {
  readonly upstream: Upstream;
  readonly dataDir: string;
  readonly adminToken: string;
  admin(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ): Promise<{ status: number; body: unknown; headers: Headers }>;
  logs(): string;
  /** Closes the servers and the store, keeping DATA_DIR (restart tests). */
  stop(): Promise<void>;
  /** Stops and removes DATA_DIR. */
  destroy(): Promise<void>;
}

export async function startTestUpstream(
  options: { dataDir?: string; env?: Record<string, string> } & UpstreamOptions = {},
): Promise<TestUpstream> {
  // A DATA_DIR of the test's own is started as it is (first starts, restarts); a temporary one
  // holds a migrated store already, unless the store is PostgreSQL, and the address sample.
  const prefix = 'tokengate-upstream-';
  // An upstream reading its addresses elsewhere (ADDRESS_DATA_DIR) gets no sample in DATA_DIR.
  const fresh = options.env?.['DATABASE_URL'] ? storelessDataDir : migratedDataDir;
  const dataDir = options.dataDir ?? (await fresh(prefix, { sample: options.env?.['ADDRESS_DATA_DIR'] === undefined }));
  const config = loadUpstreamConfig({
    UPSTREAM_PORT: '0',
    ADMIN_PORT: '0',
    UPSTREAM_METRICS_PORT: '0',
    DATA_DIR: dataDir,
    ...options.env,
  });
  const lines: string[] = [];
  const log = createLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(line) } });
  const upstream = await startUpstream(config, { ...options, log });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await upstream.close();
  };
  return {
    upstream,
    dataDir,
    adminToken: upstream.adminToken.value,
    async admin(method, path, body, token = upstream.adminToken.value) {
      const res = await fetch(`${upstream.adminUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      const text = await res.text();
      return {
        status: res.status,
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
        headers: res.headers,
      };
    },
    logs: () => lines.join(''),
    stop,
    async destroy() {
      await stop();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Obtains a token from the upstream's own token endpoint with client credentials (form body). */
export async function clientCredentialsToken(
  baseUrl: string,
  clientId: string,
  clientSecret: string,
  scope?: string,
): Promise<string> {
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
  });
  if (scope) form.set('scope', scope);
  const res = await fetch(`${baseUrl}/oauth/token`, { method: 'POST', body: form });
  const body = (await res.json()) as { access_token?: string };
  if (res.status !== 200 || !body.access_token)
    throw new Error(`token request failed: ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}
