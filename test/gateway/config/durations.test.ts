import { describe, expect, it } from 'vitest';
import { ConfigError } from '#common';
import { parseGatewayConfig } from '../../../src/gateway/config/load.ts';

const ROUTES = 'routes:\n  - { path: /api/x, auth: bearer }\n';

function parse(yaml: string) {
  return parseGatewayConfig(`${yaml}\n${ROUTES}`, 'durations.yaml', {});
}

function problems(yaml: string): readonly string[] {
  try {
    parse(yaml);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('durations in gateway.yaml', () => {
  it('takes strings with a unit, as other gateways write them, and numbers in the key’s unit as before', () => {
    const config = parse(`
upstream: { connectTimeoutMs: 2s, responseTimeoutMs: "500ms" }
issuer:
  clockToleranceSec: 5
  keySet: { maxStaleSec: 1h, cooldownSec: "2m", fetchTimeoutMs: 1500 }
limits: { headersTimeoutMs: 1.5s }
drainTimeoutMs: 10s
revocation: { maxStalenessSec: 30s }
`);
    expect(config.upstream.connectTimeoutMs).toBe(2_000);
    expect(config.upstream.responseTimeoutMs).toBe(500);
    expect(config.issuer.clockToleranceSec).toBe(5);
    expect(config.issuer.keySet.maxStaleSec).toBe(3_600);
    expect(config.issuer.keySet.cooldownSec).toBe(120);
    expect(config.issuer.keySet.fetchTimeoutMs).toBe(1_500);
    expect(config.limits.headersTimeoutMs).toBe(1_500);
    expect(config.drainTimeoutMs).toBe(10_000);
    expect(config.revocation.maxStalenessSec).toBe(30);
  });

  it('keeps the documented defaults when a duration is not set', () => {
    const config = parse('');
    expect(config.upstream.connectTimeoutMs).toBe(2_000);
    expect(config.drainTimeoutMs).toBe(10_000);
    expect(config.issuer.keySet.maxStaleSec).toBe(3_600);
  });

  it('names the key and line of a duration it cannot read, out of bounds or not whole in the key’s unit', () => {
    expect(problems('drainTimeoutMs: soon')).toEqual([
      'drainTimeoutMs: must be a number of milliseconds or a duration such as "500ms", "2s", "5m" or "1h" (got "soon") (line 1)',
    ]);
    expect(problems('issuer: { clockToleranceSec: 500ms }')).toEqual([
      'issuer.clockToleranceSec: must be whole seconds (got "500ms") (line 1)',
    ]);
    expect(problems('upstream: { connectTimeoutMs: 2m }')).toEqual([
      'upstream.connectTimeoutMs: Too big: expected number to be <=60000 (line 1)',
    ]);
    expect(problems('limits: { headersTimeoutMs: 20s, requestTimeoutMs: 10s }')).toEqual([
      'limits.headersTimeoutMs: must not exceed limits.requestTimeoutMs (line 1)',
    ]);
  });
});
