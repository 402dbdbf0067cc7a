import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '#gateway';
import { launch, runCli } from './cli-runner.ts';

const SHIPPED = join(import.meta.dirname, '..', '..', 'config', 'gateway.yaml');

/** The shipped route map's environment, with nothing listening upstream (the listener starts anyway). */
const BASE = {
  GATEWAY_PORT: '0',
  METRICS_PORT: '0',
  UPSTREAM_URL: 'http://127.0.0.1:9',
  REVOCATION_FEED_TOKEN: 'feed-token-of-this-test',
  LOG_LEVEL: 'info',
};

describe('the shipped gateway.yaml with variables set but empty', () => {
  it('listens on 127.0.0.1, not on every interface, when GATEWAY_HOST is empty', { timeout: 60_000 }, async () => {
    const gateway = launch('gateway', { ...BASE, GATEWAY_CONFIG: SHIPPED, GATEWAY_HOST: '' });
    try {
      const [found] = await gateway.waitFor(/\{[^\n]*"msg":"gateway listening"[^\n]*\}/, 30_000);
      const line = JSON.parse(found) as { url?: string };
      // Before: "http://:PORT", a listener on every interface (${GATEWAY_HOST:-127.0.0.1} gave '').
      expect(line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      gateway.child.kill('SIGTERM');
      expect(await gateway.exited).toBe(0);
    } finally {
      gateway.child.kill('SIGKILL');
    }
  });

  it.each(['GATEWAY_PORT', 'METRICS_PORT', 'UPSTREAM_URL', 'GATEWAY_WORKERS'])(
    'takes the default for an empty %s (check-config)',
    async (name) => {
      const result = await runCli(['check-config', SHIPPED], { ...BASE, [name]: '' });
      // Before: "listen.port: Invalid input: expected number, received string" and the like, exit 1.
      expect(result).toMatchObject({ code: 0, stdout: `OK ${SHIPPED}\n`, stderr: '' });
    },
  );

  it('reads values with surrounding spaces as the upstream does: trimmed, and only spaces means the default', async () => {
    const spaced = await runCli(['check-config', SHIPPED], {
      ...BASE,
      GATEWAY_PORT: ' 8081 ',
      UPSTREAM_PORT: ' 3001',
      GATEWAY_HOST: '  ',
    });
    // Before: "listen.port: Invalid input: expected number, received string", exit 1, while the upstream started.
    expect(spaced).toMatchObject({ code: 0, stdout: `OK ${SHIPPED}\n`, stderr: '' });
    const { UPSTREAM_URL: _, ...env } = BASE;
    const config = loadGatewayConfig(SHIPPED, {
      ...env,
      GATEWAY_PORT: ' 8081 ',
      UPSTREAM_PORT: ' 3001',
      GATEWAY_HOST: '  ',
    });
    expect({ host: config.listen.host, port: config.listen.port, upstream: config.upstream.url }).toEqual({
      host: '127.0.0.1',
      port: 8081,
      upstream: 'http://127.0.0.1:3001',
    });
  });
});
