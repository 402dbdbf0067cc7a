import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import { listen, listenerUrl } from '../server/url.ts';

/** Prometheus text on its own port, so the public listener never exposes it. */
export async function startMetricsServer(registry: Registry, host: string, port: number): Promise<{ server: Server; url: string }> {
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
  await listen(server, port, host);
  return { server, url: `${listenerUrl(server, host, false)}/metrics` };
}
