import { describe, expect, it } from 'vitest';
import { KEY_SET_DEFAULTS, REVOCATION_SET_DEFAULTS, VERIFIER_DEFAULTS } from '#auth';
import { ConfigError } from '#common';
import { gatewayFileSchema } from '#gateway';
import { parseGatewayConfig } from '../../../src/gateway/config/load.ts';
import { resolve } from '../../../src/gateway/config/resolve.ts';

const ROUTES = 'routes:\n  - { path: /a, auth: none }\n';
const MINIMAL = { routes: [{ path: '/a', auth: 'none' }] };

function problemsOf(yaml: string, env: Record<string, string>): readonly string[] {
  try {
    parseGatewayConfig(yaml, 'g.yaml', env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('loaded without errors');
}

describe('loading gateway.yaml in two steps: the file schema, then resolve(file, env)', () => {
  it('leaves every key the environment stands in for unset in the file, whatever the environment says', () => {
    const file = gatewayFileSchema.parse(MINIMAL);
    expect(file.listen.port).toBeUndefined();
    expect(file.upstream.url).toBeUndefined();
    expect(file.issuer.issuer).toBeUndefined();
    expect(file.metrics).toEqual({});
    expect(file.dpop.nonceSecret).toBeUndefined();
  });

  it('applies the environment and the derived values in resolve, and freezes the result', () => {
    const resolved = resolve(gatewayFileSchema.parse(MINIMAL), {
      GATEWAY_PORT: '9000',
      UPSTREAM_URL: 'http://10.0.0.2:4000/',
      METRICS_PORT: '9100',
      REDIS_URL: 'redis://10.0.0.9:6379',
    });
    if (!resolved.ok) throw new Error(JSON.stringify(resolved.error));
    const config = resolved.value;
    expect(config.listen.port).toBe(9000);
    expect(config.issuer.issuer).toBe('http://127.0.0.1:9000');
    expect(config.issuer.jwksUrl).toBe('http://10.0.0.2:4000/.well-known/jwks.json');
    expect(config.metrics).toEqual({ host: '127.0.0.1', port: 9100, portIsDefault: false });
    expect(config.dpop.replayRedis?.url).toBe('redis://10.0.0.9:6379');
    expect(Object.isFrozen(config.issuer.revocationFeed)).toBe(true);
  });

  it('answers a variable that cannot stand in for its key as a problem on that key, naming the variable', () => {
    expect(resolve(gatewayFileSchema.parse(MINIMAL), { METRICS_PORT: 'ninety' })).toEqual({
      ok: false,
      error: [{ path: ['metrics', 'port'], message: 'METRICS_PORT must be a port number (0-65535), not "ninety"' }],
    });
  });

  it('checks a variable only where the file leaves its key unset', () => {
    const config = parseGatewayConfig(`metrics: { port: 9200 }\n${ROUTES}`, 'g.yaml', { METRICS_PORT: 'ninety' });
    expect(config.metrics.port).toBe(9200);
  });

  it('refuses a bad REDIS_URL beside the other mistakes of a rateLimits section', () => {
    const yaml = `rateLimits: { plans: { free: { monthlyQuota: 0 } } }\n${ROUTES}`;
    expect(problemsOf(yaml, { REDIS_URL: 'http://10.0.0.9' })).toEqual([
      expect.stringMatching(/^rateLimits\.plans\.free\.monthlyQuota: /),
      'rateLimits.redis.url: REDIS_URL must be a redis:// or rediss:// URL (line 1)',
    ]);
  });
});

describe("gateway.yaml's verifier defaults", () => {
  it("are the verification plugin's own, so the two never disagree", () => {
    const { issuer, caches, revocation } = parseGatewayConfig(ROUTES, 'g.yaml', {});
    expect(issuer.algorithms).toEqual(KEY_SET_DEFAULTS.algorithms);
    expect(issuer.clockToleranceSec).toBe(VERIFIER_DEFAULTS.clockToleranceSec);
    expect(issuer.keySet).toEqual({
      minRefreshSec: KEY_SET_DEFAULTS.minMaxAgeSec,
      maxRefreshSec: KEY_SET_DEFAULTS.maxMaxAgeSec,
      maxStaleSec: KEY_SET_DEFAULTS.maxStaleSec,
      cooldownSec: KEY_SET_DEFAULTS.cooldownSec,
      fetchTimeoutMs: KEY_SET_DEFAULTS.fetchTimeoutMs,
    });
    expect(caches).toEqual({ tokens: VERIFIER_DEFAULTS.tokenCache, negative: VERIFIER_DEFAULTS.negativeCache });
    expect(revocation).toEqual(REVOCATION_SET_DEFAULTS);
  });
});
