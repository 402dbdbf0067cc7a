import { createMemoryReplayCache, type DpopReplayCache } from '#auth';
import { type Clock, type Logger, systemClock } from '#common';
import { loadGatewayConfig } from './config/load.ts';
import type { Env } from '#common';
import type { GatewayConfig } from './config/gateway-config.ts';
import { createMetrics } from './ops/metrics.ts';
import { startMetrics } from './ops/metrics-server.ts';
import type { MetricSnapshot } from './ops/metrics-snapshot.ts';
import { createRateLimiting } from './ratelimit/runtime.ts';
import { createReloader, type ReloadResult } from './reload/reloader.ts';
import { watchConfig } from './reload/watch.ts';
import { accessLineFor } from './server/access-log.ts';
import { drain } from './server/drain.ts';
import { createGeneration, type Generation, retire } from './server/generation.ts';
import { createHandler } from './server/handler.ts';
import { createListener } from './server/listener.ts';
import { prepareTlsReload } from './server/tls-files.ts';
import { listen, listenerUrl } from './server/url.ts';
import { loadGatewayTracing } from './tracing/load.ts';
import { createAuthRuntime } from './verification/runtime.ts';

export interface StartOptions {
  readonly log: Logger;
  readonly clock?: Clock;
  /** The file `reload()` re-reads; with `watch` (default true) SIGHUP and file changes reload it. */
  readonly configFile?: string;
  readonly env?: Env;
  readonly watch?: boolean;
  /** With `watch`: also reload when the file changes (default true); false leaves SIGHUP only. */
  readonly watchFile?: boolean;
  /** How long a reload that changes the issuer settings waits for the new keys and feed (15 s). */
  readonly reloadReadyTimeoutMs?: number;
  /**
   * In a cluster worker: where the primary serves the metrics of every worker combined. This
   * gateway then opens no metrics port (the primary asks it for `metricsSnapshot()`).
   */
  readonly clusterMetricsUrl?: string;
  /** In a cluster worker: the primary's DPoP replay cache, shared by every worker (used without Redis). */
  readonly dpopReplay?: DpopReplayCache;
}

export interface RunningGateway {
  readonly url: string;
  readonly metricsUrl: string;
  /** Every metric of this gateway as prom-client's JSON (what a cluster worker gives the primary). */
  metricsSnapshot(): Promise<MetricSnapshot[]>;
  /** Resolves once keys are loaded and revocations synced (what /readyz reports). */
  ready(): Promise<void>;
  /**
   * Loads and validates the new configuration, then swaps it in. Never rejects: on any error,
   * or once close() has begun, it keeps the old one and resolves `ok: false` with the problems.
   */
  reload(next?: GatewayConfig): Promise<ReloadResult>;
  /** Graceful: ends a reload in progress, stops accepting, lets in-flight requests finish (bounded by drainTimeoutMs). */
  close(): Promise<void>;
}

export async function startGateway(config: GatewayConfig, options: StartOptions): Promise<RunningGateway> {
  const { log, clock } = options;
  let current: Generation | undefined;
  const metrics = createMetrics(() => current?.auth.metricsSource);
  const hooks = { onUpstreamFailure: (_req: unknown, kind: string) => metrics.upstreamFailures.inc({ kind }) };
  // Accepted DPoP proofs outlive reloads as counters do: a new verifier must still refuse a replay.
  const memoryReplay = options.dpopReplay ?? createMemoryReplayCache(() => (clock ?? systemClock).now());
  const newAuth = (c: GatewayConfig) => createAuthRuntime(c, { log, clock, metrics, memoryReplay });
  const closeGeneration = (gen: Generation) => gen.forwarder.close();
  // Access-log lines carry only fixed, non-secret fields (access-log.ts), so they skip the
  // redaction pass every other line gets, and pino's serialiser.
  const accessLine = accessLineFor(log);

  // Undefined unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then no SDK is loaded and no span made.
  const tracing = await loadGatewayTracing(options.env ?? process.env, config.upstream.url);
  const firstAuth = newAuth(config);
  // Counters outlive reloads: a reload changes the limits, never what was already counted.
  const rateLimiting = createRateLimiting({
    clock: clock ?? systemClock,
    log,
    registry: metrics.registry,
    current: () => current?.config ?? config,
  });
  let server: ReturnType<typeof createListener> | undefined;
  let metricsServer: Awaited<ReturnType<typeof startMetrics>> | undefined;
  try {
    current = createGeneration(config, firstAuth, hooks, rateLimiting.status);
    server = createListener(
      config,
      createHandler({
        current: () => current as Generation,
        onIdle: closeGeneration,
        log,
        accessLine,
        metrics,
        tracing,
        rateLimiting,
      }),
    );
    await listen(server, config.listen.port, config.listen.host);
    if (options.clusterMetricsUrl === undefined)
      metricsServer = await startMetrics(config.metrics, metrics.exposition, log);
  } catch (error) {
    // A port in use, a router or TLS listener that cannot be built: stop what already started.
    // The key-set and feed loops would otherwise keep the process alive after the error.
    firstAuth.close();
    await rateLimiting.close();
    current?.forwarder.close();
    server?.close();
    await tracing?.shutdown();
    throw error;
  }
  const listener = server;

  const reloader = createReloader({
    log,
    current: () => current as Generation,
    load: () => loadGatewayConfig(options.configFile, options.env),
    newAuth,
    ...(options.reloadReadyTimeoutMs !== undefined ? { readyTimeoutMs: options.reloadReadyTimeoutMs } : {}),
    prepareListener: (next) => prepareTlsReload(listener, next.tls),
    swap(next, auth) {
      const old = current as Generation;
      current = createGeneration(next, auth, hooks, rateLimiting.status);
      retire(old, closeGeneration);
    },
  });

  const stopWatching =
    options.configFile && options.watch !== false
      ? watchConfig(options.configFile, () => void reloader.reload(), { files: options.watchFile !== false })
      : () => undefined;

  const url = listenerUrl(listener, config.listen.host, config.tls !== undefined);
  const metricsUrl = metricsServer?.url ?? options.clusterMetricsUrl ?? '';
  log.info({ url, metrics: metricsUrl, routes: config.routes.length, pid: process.pid }, 'gateway listening');
  return {
    url,
    metricsUrl,
    metricsSnapshot: metrics.snapshot,
    ready: () => (current as Generation).auth.ready(),
    reload: (next) => reloader.reload(next),
    async close() {
      stopWatching();
      // A reload still waiting for its new verifier would swap it in after the close below.
      await reloader.close();
      await drain(listener, (current as Generation).config.drainTimeoutMs);
      metricsServer?.server.close();
      const gen = current as Generation;
      gen.auth.close();
      await rateLimiting.close();
      retire(gen, closeGeneration);
      await tracing?.shutdown();
    },
  };
}
