import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig, startGateway } from '#gateway';
import { createLogSink } from '../support/log-sink.ts';

const SHIPPED = join(import.meta.dirname, '..', '..', '..', 'config', 'gateway.yaml');
/** The shipped file with nothing upstream: the listeners start anyway (readiness waits). */
const ENV = { GATEWAY_PORT: '0', UPSTREAM_URL: 'http://127.0.0.1:9', REVOCATION_FEED_TOKEN: 'feed-token-of-this-test' };

/** Another stack's exporter on 9464; if something else already holds it, the port is just as taken. */
let squatter: Server | undefined;
beforeAll(async () => {
  const server = createServer((_req, res) => res.end('someone else'));
  squatter = await new Promise<Server | undefined>((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(9464, '127.0.0.1', () => resolve(server));
  });
});
afterAll(() => squatter?.close());

describe('the metrics port', () => {
  it('gives way to a free port, with a warning, when the default 9464 is taken and nobody chose it', async () => {
    const sink = createLogSink('info');
    const gateway = await startGateway(loadGatewayConfig(SHIPPED, ENV), { log: sink.log });
    try {
      const port = Number(new URL(gateway.metricsUrl).port);
      expect(port).not.toBe(9464);
      expect(gateway.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect((await fetch(gateway.metricsUrl)).status).toBe(200);
      expect(sink.entries().find((e) => e['level'] === 40 && e['taken'] === 9464)).toMatchObject({
        metrics: gateway.metricsUrl,
      });
    } finally {
      await gateway.close();
    }
  });

  it('fails the start when METRICS_PORT names a port that is taken', async () => {
    await expect(
      startGateway(loadGatewayConfig(SHIPPED, { ...ENV, METRICS_PORT: '9464' }), { log: createLogSink('silent').log }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('refuses a METRICS_PORT that is not a port number, naming it', () => {
    expect(() => loadGatewayConfig(SHIPPED, { ...ENV, METRICS_PORT: 'ninety' })).toThrow(
      /METRICS_PORT must be a port number/,
    );
  });
});
