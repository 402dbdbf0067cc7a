import type { Clock, Logger } from '#common';
import { ConfigError } from './config/errors.ts';
import { loadGatewayConfig } from './config/load.ts';
import type { Env, GatewayConfig } from './config/schema.ts';
import { createMetrics } from './ops/metrics.ts';
import { startMetricsServer } from './ops/metrics-server.ts';
import { authChanged, sectionsNeedingRestart } from './reload/needs-restart.ts';
import { watchConfig } from './reload/watch.ts';
import { drain } from './server/drain.ts';
import { createGeneration, type Generation, retire } from './server/generation.ts';
import { createHandler } from './server/handler.ts';
import { createListener } from './server/listener.ts';
import { listen, listenerUrl } from './server/url.ts';
import { type AuthRuntime, createAuthRuntime } from './verification/runtime.ts';

export interface StartOptions {
  readonly log: Logger;
  readonly clock?: Clock;
  /** The file `reload()` re-reads; with `watch` (default true) SIGHUP and file changes reload it. */
  readonly configFile?: string;
  readonly env?: Env;
  readonly watch?: boolean;
  /** With `watch`: also reload when the file changes (default true); false leaves SIGHUP only. */
  readonly watchFile?: boolean;
}

export interface RunningGateway {
  readonly url: string;
  readonly metricsUrl: string;
  /** Resolves once keys are loaded and revocations synced (what /readyz reports). */
  ready(): Promise<void>;
  /** Loads and validates the new configuration, then swaps it in; on error keeps the old one. */
  reload(next?: GatewayConfig): Promise<{ ok: boolean; problems: readonly string[] }>;
  /** Graceful: stops accepting, lets in-flight requests finish (bounded by drainTimeoutMs). */
  close(): Promise<void>;
}

export async function startGateway(config: GatewayConfig, options: StartOptions): Promise<RunningGateway> {
  const { log, clock } = options;
  let current: Generation | undefined;
  const metrics = createMetrics(() => current?.auth.metricsSource);
  const hooks = { onUpstreamFailure: (_req: unknown, kind: string) => metrics.upstreamFailures.inc({ kind }) };
  const newAuth = (c: GatewayConfig) => createAuthRuntime(c, { log, clock, metrics });
  const closeGeneration = (gen: Generation) => gen.forwarder.close();
  current = createGeneration(config, newAuth(config), hooks);

  // Access-log lines carry only fixed, non-secret fields (access-log.ts), so they skip the
  // redaction pass every other line gets: it more than doubles the cost of the line.
  const accessLog = log.child({}, { redact: [] });
  const server = createListener(config, createHandler({ current: () => current as Generation, onIdle: closeGeneration, log, accessLog, metrics }));
  await listen(server, config.listen.port, config.listen.host);
  const metricsServer = await startMetricsServer(metrics.registry, config.metrics.host, config.metrics.port).catch(async (error: unknown) => {
    server.close();
    throw error;
  });

  async function reload(next?: GatewayConfig): Promise<{ ok: boolean; problems: readonly string[] }> {
    const old = current as Generation;
    let candidate: GatewayConfig;
    try {
      candidate = next ?? loadGatewayConfig(options.configFile, options.env);
    } catch (error) {
      const problems = error instanceof ConfigError ? error.problems : [String(error)];
      log.error({ problems }, 'config reload refused; keeping the running configuration');
      return { ok: false, problems };
    }
    const restart = sectionsNeedingRestart(old.config, candidate);
    if (restart.length > 0) log.warn({ sections: restart }, 'config reload: these sections take effect only after a restart');
    let auth: AuthRuntime = old.auth;
    if (authChanged(old.config, candidate)) {
      auth = newAuth(candidate);
      await auth.ready();
    }
    current = createGeneration(candidate, auth, hooks);
    if (auth !== old.auth) old.auth.close();
    retire(old, closeGeneration);
    log.info({ routes: candidate.routes.length }, 'config reloaded');
    return { ok: true, problems: [] };
  }

  const stopWatching =
    options.configFile && options.watch !== false
      ? watchConfig(options.configFile, () => void reload().catch((e: unknown) => log.error({ err: String(e) }, 'config reload failed')), {
          files: options.watchFile !== false,
        })
      : () => undefined;

  const url = listenerUrl(server, config.listen.host, config.tls !== undefined);
  log.info({ url, metrics: metricsServer.url, routes: config.routes.length, pid: process.pid }, 'gateway listening');
  return {
    url,
    metricsUrl: metricsServer.url,
    ready: () => (current as Generation).auth.ready(),
    reload,
    async close() {
      stopWatching();
      await drain(server, (current as Generation).config.drainTimeoutMs);
      metricsServer.server.close();
      const gen = current as Generation;
      gen.auth.close();
      retire(gen, closeGeneration);
    },
  };
}
