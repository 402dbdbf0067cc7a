import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import type { Logger } from '#common';
import { closeServer, listen } from '../http-server.ts';

export interface MetricsListenerConfig {
  readonly host: string;
  readonly port: number;
  /** Neither UPSTREAM_METRICS_PORT nor anything else chose the port: another free one will do if it is taken. */
  readonly portIsDefault: boolean;
}

/**
 * Prometheus text at `/metrics` on a listener of its own (never the public port). As the
 * gateway's: only a default port that is taken (a second local stack) gives way to a free one,
 * with a warning; a chosen port that is taken fails the start.
 */
export async function startUpstreamMetricsServer(
  registry: Registry,
  config: MetricsListenerConfig,
  log: Logger,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  const url = await listenOrFallBack(server, config, log);
  return { url: `${url}/metrics`, close: () => closeServer(server) };
}

async function listenOrFallBack(server: Server, config: MetricsListenerConfig, log: Logger): Promise<string> {
  try {
    return await listen(server, config.port, config.host);
  } catch (error) {
    if (!config.portIsDefault || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    const url = await listen(server, 0, config.host);
    log.warn(
      { metrics: `${url}/metrics`, taken: config.port },
      `metrics: port ${config.port} is in use; serving metrics on ${url}/metrics (set UPSTREAM_METRICS_PORT to choose)`,
    );
    return url;
  }
}
