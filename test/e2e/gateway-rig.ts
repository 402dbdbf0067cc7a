import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type Scope } from '#common';
import { loadGatewayConfig, type RunningGateway, startGateway } from '#gateway';
import { freePort } from '#test/stack.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';

/**
 * The real upstream (issuer, store, validation API) and the real gateway in front of it with the
 * default route map, both in this process on loopback. PUBLIC_URL is the gateway's own address,
 * so the token endpoint and the API are addressed as a client outside sees them, which is what a
 * DPoP proof's `htu` and a client assertion's `aud` name.
 */
export interface GatewayRig {
  readonly gatewayUrl: string;
  readonly tokenUrl: string;
  readonly up: TestUpstream;
  /** A new business project with one client (admin API), as `POST /projects/:id/clients` answers. */
  createClient(body: ClientBody): Promise<{ client_id: string; client_secret?: string }>;
  close(): Promise<void>;
}

export interface ClientBody {
  readonly scopes: readonly Scope[];
  readonly auth?: 'client_secret' | 'private_key_jwt';
  readonly jwks?: { keys: unknown[] };
  readonly require_dpop?: boolean;
}

const silent = createLogger({ level: 'silent' });
const DEFAULT_CONFIG = join(import.meta.dirname, '..', '..', 'config', 'gateway.yaml');

export interface RigOptions {
  /**
   * Server nonces (RFC 9449 §8, §9) at the token endpoint and at the gateway, each signing with
   * a secret of its own, so that a nonce from one is refused by the other.
   */
  readonly dpopNonce?: 'supported' | 'required';
}

export async function startGatewayRig(options: RigOptions = {}): Promise<GatewayRig> {
  const port = await freePort();
  const gatewayUrl = `http://127.0.0.1:${port}`;
  const nonces = options.dpopNonce;
  const upstreamNonces: Record<string, string> = nonces
    ? { DPOP_NONCE: nonces, DPOP_NONCE_SECRET: randomBytes(24).toString('hex') }
    : {};
  const up = await startTestUpstream({ env: { ...upstreamNonces, PUBLIC_URL: gatewayUrl } });
  const env = {
    GATEWAY_PORT: String(port),
    METRICS_PORT: '0',
    UPSTREAM_URL: up.upstream.url,
    PUBLIC_URL: gatewayUrl,
    REVOCATION_FEED_TOKEN: up.upstream.feedToken.value,
  };
  let gateway: RunningGateway | undefined;
  const configDir = await mkdtemp(join(tmpdir(), 'tokengate-rig-'));
  try {
    const configFile = join(configDir, 'gateway.yaml');
    // The default route map, plus a `dpop` section when nonces are asked for.
    const dpop = nonces ? `\ndpop: { nonce: ${nonces}, nonceSecret: "${randomBytes(24).toString('hex')}" }\n` : '';
    await writeFile(configFile, (await readFile(DEFAULT_CONFIG, 'utf8')) + dpop);
    gateway = await startGateway(loadGatewayConfig(configFile, env), { log: silent });
    await gateway.ready();
  } catch (error) {
    await gateway?.close();
    await up.destroy();
    await rm(configDir, { recursive: true, force: true });
    throw error;
  }
  let projects = 0;
  return {
    gatewayUrl,
    tokenUrl: `${gatewayUrl}/oauth/token`,
    up,
    async createClient(body) {
      projects += 1;
      const project = await up.admin('POST', '/projects', { name: `p${projects}`, plan: 'business' });
      const projectId = (project.body as { id: string }).id;
      const created = await up.admin('POST', `/projects/${projectId}/clients`, { name: 'c', ...body });
      if (created.status !== 201) throw new Error(`client create: ${created.status} ${JSON.stringify(created.body)}`);
      return created.body as { client_id: string; client_secret?: string };
    },
    async close() {
      await gateway?.close();
      await up.destroy();
      await rm(configDir, { recursive: true, force: true });
    },
  };
}
