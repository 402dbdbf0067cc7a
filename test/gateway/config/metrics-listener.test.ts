import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '#gateway';
import { parseGatewayConfig } from '../../../src/gateway/config/load.ts';

const shipped = join(import.meta.dirname, '..', '..', '..', 'config', 'gateway.yaml');
const ROUTES = 'routes:\n  - { path: /api/x, auth: bearer }\n';

describe('the gateway’s metrics listener', () => {
  it('listens on loopback unless METRICS_HOST says otherwise, with the shipped file', () => {
    expect(loadGatewayConfig(shipped, {}).metrics.host).toBe('127.0.0.1');
    // Before, the shipped file fixed 127.0.0.1: a Prometheus in another container could not scrape it.
    expect(loadGatewayConfig(shipped, { METRICS_HOST: '0.0.0.0', METRICS_PORT: '9100' }).metrics).toEqual({
      host: '0.0.0.0',
      port: 9100,
      portIsDefault: false,
    });
  });

  it('takes host and port from the file over the environment', () => {
    const config = parseGatewayConfig(`metrics: { host: "::", port: 9200 }\n${ROUTES}`, 'm.yaml', {
      METRICS_HOST: '0.0.0.0',
      METRICS_PORT: '9100',
    });
    expect(config.metrics).toEqual({ host: '::', port: 9200, portIsDefault: false });
  });
});
