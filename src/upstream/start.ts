import { createVerifier } from '#auth';
import { adminTokenUnusable, type Clock, ConfigError, createLogger, isUsableAdminToken, type Logger } from '#common';
import { createIssuer } from '#issuer';
import { createPortal } from '#portal';
import { openStore } from '#store';
import type { ValidationRoute } from '#validation';
import { createAdminService } from '#admin';
import { startAdminServer } from './admin/server.ts';
import { createApiAuthenticator } from './api-auth/index.ts';
import type { UpstreamConfig } from './config.ts';
import { type ResolvedSecret, resolveSecret } from './secret-file.ts';
import { startPublicServer } from './server.ts';
import { storeHealth } from './store-health.ts';
import { startUpstreamMetricsServer } from './metrics/metrics-server.ts';
import { createUpstreamMetrics } from './metrics/upstream-metrics.ts';
import { storeOpenError } from './store-open-error.ts';
import { loadUpstreamTracing } from './tracing/load.ts';
import { defaultValidationRoutes } from './validation-routes.ts';
import { dpopReplayCache } from './dpop-replay.ts';

/** The algorithms the issuer creates keys with (SIGNING_ALG); never HMAC or none. */
const SIGNING_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;
/**
 * Below this an admin token is warned about, not refused: the operator contract takes any value
 * (a test rig may set a short one), but a short token can be guessed over the admin API.
 */
const SHORT_ADMIN_TOKEN = 16;

export interface UpstreamOptions {
  readonly log?: Logger;
  readonly clock?: Clock;
  /** The validation handlers to host; default: every route of `#validation`. */
  readonly routes?: readonly ValidationRoute[];
}

export interface Upstream {
  /** Base URL of the public server (issuer, feed, health, validation API). */
  readonly url: string;
  readonly adminUrl: string;
  /** The Prometheus endpoint, on its own listener (UPSTREAM_METRICS_PORT). */
  readonly metricsUrl: string;
  /** Where the admin token came from (ADMIN_TOKEN or the file under DATA_DIR). */
  readonly adminToken: ResolvedSecret;
  readonly feedToken: ResolvedSecret;
  close(): Promise<void>;
}

/**
 * Composes the upstream: store → issuer → verifier (defence in depth, same plugin as the
 * gateway) → request authentication → public server and admin server. `close()` drains both
 * servers (the issuer ends pending feed long-polls), then closes the store.
 */
export async function startUpstream(config: UpstreamConfig, options: UpstreamOptions = {}): Promise<Upstream> {
  const log = options.log ?? createLogger({ level: config.logLevel, name: 'upstream', format: config.logFormat });
  const clock = options.clock;
  const adminToken = await resolveSecret(config.dataDir, 'admin-token', config.adminToken, log);
  // ADMIN_TOKEN was checked with the rest of the environment; a token file edited by hand is checked here.
  if (!isUsableAdminToken(adminToken.value)) throw new ConfigError([adminTokenUnusable(adminToken.path)]);
  const feedToken = await resolveSecret(config.dataDir, 'feed-token', config.feedToken, log);
  if (adminToken.value.length < SHORT_ADMIN_TOKEN) {
    log.warn(
      { source: adminToken.source },
      `the admin token is shorter than ${SHORT_ADMIN_TOKEN} characters and can be guessed: use a long random one (with ADMIN_TOKEN unset, the first start writes 256 random bits to $DATA_DIR/admin-token)`,
    );
  }
  const storeOptions = {
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    timeoutMs: config.databaseTimeoutMs,
    clock,
  };
  const store = await openStore(storeOptions, log).catch((error: unknown) => {
    throw storeOpenError(error, config.databaseUrl, config.databaseTimeoutMs);
  });
  const cleanups: Array<() => Promise<void>> = [() => store.close()];
  const closeAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const issuer = await createIssuer({
      store,
      log,
      ...(clock ? { clock } : {}),
      config: {
        issuer: config.publicUrl,
        audience: config.audience,
        algorithm: config.signingAlg,
        keyEncryptionKey: config.keyEncryptionKey,
        feedToken: feedToken.value,
        trustedProxies: config.trustedProxies,
        dpopNonce: config.dpopNonce,
        adminToken: adminToken.value,
      },
    });
    cleanups.push(() => issuer.close());
    const replay = dpopReplayCache(config, log, clock);
    if (replay) cleanups.push(async () => replay.close());
    const verifier = createVerifier({
      issuer: config.publicUrl,
      audience: config.audience,
      // Every algorithm the issuer signs with, not only SIGNING_ALG: existing keys keep theirs
      // after a change, and each key is pinned to its own algorithm (keyResolver.alg).
      algorithms: SIGNING_ALGORITHMS,
      keys: issuer.keyResolver,
      revocations: issuer.revocationChecker,
      // The gateway forwards the DPoP header: the proof is checked again against PUBLIC_URL and the path.
      dpop: {
        htu: (request) => config.publicUrl.replace(/\/+$/, '') + (request.url ?? '/').split('?')[0],
        ...(replay ? { replay } : {}),
      },
      ...(clock ? { clock } : {}),
    });
    const apiAuth = createApiAuthenticator({ verifier, store, log, ...(clock ? { clock } : {}) });
    let draining = false;
    const storeAnswers = storeHealth(store, log);
    const readiness = () => ({ keys: issuer.keyResolver.ready(), store: storeAnswers(), accepting: !draining });
    const hosted = options.routes
      ? { routes: options.routes, reloadAddresses: undefined, dataset: undefined }
      : await defaultValidationRoutes({ dataDir: config.addressDataDir, log });
    const routes = hosted.routes;
    const metrics = createUpstreamMetrics(
      routes.map((route) => route.path),
      hosted.dataset ? { dataset: hosted.dataset } : {},
    );
    cleanups.push(async () => metrics.close());
    const metricsServer = await startUpstreamMetricsServer(metrics.registry, config.metrics, log);
    cleanups.push(() => metricsServer.close());
    // Undefined unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then the SDK is never loaded.
    const tracing = await loadUpstreamTracing(config.tracing);
    if (tracing) cleanups.push(() => tracing.close());
    const publicServer = await startPublicServer(
      { issuer, apiAuth, routes, readiness, log, observe: metrics.observe, tracing, store, feedToken: feedToken.value },
      config.host,
      config.upstreamPort,
    );
    cleanups.push(() => publicServer.close());
    // Known once the admin server listens (its port may be 0); PORTAL_URL when the portal is published elsewhere.
    let portalUrl = config.portalUrl;
    const context = {
      store,
      issuer,
      log,
      reloadAddresses: hosted.reloadAddresses,
      clock,
      portalUrl: () => portalUrl ?? '/portal',
    };
    const service = createAdminService(context);
    // The account portal: the admin API's operations behind its own sign-in (session cookie).
    const portal = createPortal({
      service,
      store,
      log,
      adminToken: adminToken.value,
      clock,
      portalUrl: context.portalUrl,
    });
    const admin = await startAdminServer({
      service,
      log,
      adminToken: adminToken.value,
      host: config.adminHost,
      port: config.adminPort,
      portal,
    });
    cleanups.push(() => admin.close());
    portalUrl ??= `${admin.url}/portal`;
    log.info(
      { url: publicServer.url, adminUrl: admin.url, metrics: metricsServer.url, store: store.kind },
      'upstream started',
    );
    if (!isLoopback(config.adminHost))
      log.warn(
        { adminHost: config.adminHost },
        'the admin API listens beyond loopback: put it behind a firewall or TLS',
      );
    return {
      url: publicServer.url,
      adminUrl: admin.url,
      metricsUrl: metricsServer.url,
      adminToken,
      feedToken,
      async close() {
        draining = true;
        // Stop accepting first; then the issuer answers its pending feed long-polls so the
        // servers drain at once instead of waiting out a gateway's 30 s poll; the store goes last.
        const servers = Promise.all([publicServer.close(), admin.close(), metricsServer.close()]);
        await issuer.close();
        await servers;
        metrics.close();
        await tracing?.close();
        await store.close();
      },
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
