import { createServer, type Server } from 'node:http';
import type { Logger } from '#common';
import type { GatewayConfig } from '../config/gateway-config.ts';
import { listen, listenerUrl } from '../server/url.ts';
import type { MetricsExposition } from './metrics-snapshot.ts';

/** Prometheus text on its own port, so the public listener never exposes it. */
export async function startMetricsServer(
  metrics: MetricsExposition,
  host: string,
  port: number,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.render().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await listen(server, port, host);
  return { server, url: `${listenerUrl(server, host, false)}/metrics` };
}

/**
 * The metrics listener on the configured port. Only when the port is the built-in default
 * (neither the file nor METRICS_PORT chose it) and taken, e.g. by a second local stack, does
 * another free port serve instead, with a warning: an exporter port that nobody asked for must
 * not keep the gateway from serving. A chosen port that is taken still fails the start.
 */
export async function startMetrics(
  config: GatewayConfig['metrics'],
  metrics: MetricsExposition,
  log: Logger,
): Promise<{ server: Server; url: string }> {
  try {
    return await startMetricsServer(metrics, config.host, config.port);
  } catch (error) {
    if (!config.portIsDefault || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    const started = await startMetricsServer(metrics, config.host, 0);
    log.warn(
      { metrics: started.url, taken: config.port },
      `metrics: port ${config.port} is in use; serving metrics on ${started.url} (set METRICS_PORT or metrics.port to choose)`,
    );
    return started;
  }
}
