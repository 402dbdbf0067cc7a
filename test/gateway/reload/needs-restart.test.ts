import { describe, expect, it } from 'vitest';
import { parseGatewayConfig } from '../../../src/gateway/config/load.ts';
import { authChanged, sectionsNeedingRestart } from '../../../src/gateway/reload/needs-restart.ts';

const ENV = { UPSTREAM_URL: 'http://127.0.0.1:4100', PUBLIC_URL: 'https://api.example' };
const config = (tls: string) =>
  parseGatewayConfig(`listen: { port: 0 }\n${tls}routes:\n  - { path: /api/*, auth: none }\n`, 'gateway.yaml', ENV);

describe('which changed sections need a restart', () => {
  it('applies a new certificate or key path in place, and asks for a restart only to turn TLS on or off', () => {
    const plain = config('');
    const tls = config('tls: { cert: /etc/tg/cert.pem, key: /etc/tg/key.pem }\n');
    const moved = config('tls: { cert: /etc/tg/new/cert.pem, key: /etc/tg/new/key.pem }\n');
    expect(sectionsNeedingRestart(tls, moved)).toEqual([]);
    expect(sectionsNeedingRestart(plain, tls)).toEqual(['tls (on or off)']);
    expect(sectionsNeedingRestart(tls, plain)).toEqual(['tls (on or off)']);
  });

  it("applies new plan limits in place and asks for a restart only to change the rate limits' Redis", () => {
    const limits = (requests: number, redis: string) =>
      config(
        `rateLimits:\n  ${redis}plans: { free: { groups: { api: { client: { requests: ${requests}, windowSec: 1 } } } } }\n`,
      );
    expect(sectionsNeedingRestart(limits(5, ''), limits(9, ''))).toEqual([]);
    expect(sectionsNeedingRestart(limits(5, ''), limits(5, 'redis: { url: "redis://127.0.0.1:6379" }\n  '))).toEqual([
      'rateLimits.redis',
    ]);
  });

  it('rebuilds the verification runtime, without a restart, when the DPoP nonce settings change', () => {
    const off = config('');
    const required = config('dpop: { nonce: required }\n');
    expect(sectionsNeedingRestart(off, required)).toEqual([]);
    expect(authChanged(off, required)).toBe(true);
    expect(authChanged(required, config('dpop: { nonce: required }\n'))).toBe(false);
  });

  it('rebuilds the verification runtime, without a restart, when the external issuers change', () => {
    const partner = (audience: string) =>
      config(
        `externalIssuers:\n  - { name: partner, issuer: https://idp.test, jwksUrl: https://idp.test/jwks, audience: ${audience} }\n`,
      );
    expect(sectionsNeedingRestart(config(''), partner('a'))).toEqual([]);
    expect(authChanged(config(''), partner('a'))).toBe(true);
    expect(authChanged(partner('a'), partner('b'))).toBe(true);
    expect(authChanged(partner('a'), partner('a'))).toBe(false);
  });
});
