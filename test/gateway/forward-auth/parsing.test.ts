import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '#common';
import { parseGatewayConfig } from '../../../src/gateway/config/load.ts';
import { isAddressOrBlock } from '../../../src/gateway/config/file/forward-auth.ts';
import { describedRequest, type ProxyKind, trustedPeers } from '../../../src/gateway/forward-auth/index.ts';

function requestOf(url: string, method: string, headers: Record<string, string | string[]>): IncomingMessage {
  return { url, method, headers } as unknown as IncomingMessage;
}

const PROXIES: readonly ProxyKind[] = ['nginx', 'traefik', 'caddy', 'envoy'];
const HEADER_NAMES = [
  'x-original-uri',
  'x-original-method',
  'x-forwarded-uri',
  'x-forwarded-method',
  'x-forwarded-host',
  'x-forwarded-proto',
  'host',
];

describe('reading the request a proxy describes', () => {
  it('never throws, and answers a method token and an origin-form target or a problem, whatever arrives', () => {
    const value = fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 3 }));
    fc.assert(
      fc.property(
        fc.constantFrom(...PROXIES),
        fc.string(),
        fc.string(),
        fc.dictionary(fc.constantFrom(...HEADER_NAMES), value),
        fc.option(fc.string(), { nil: undefined }),
        (proxy, url, method, headers, prefix) => {
          const result = describedRequest(requestOf(url, method, headers), proxy, prefix);
          if (typeof result === 'string') return;
          expect(result.target.startsWith('/')).toBe(true);
          expect(result.method).toMatch(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/);
          expect([undefined, 'http', 'https']).toContain(result.proto);
        },
      ),
    );
  });

  it("reads NGINX's X-Original-* pair and ignores X-Forwarded-Uri a client could pass through it", () => {
    const req = requestOf('/auth', 'GET', {
      'x-original-uri': '/api/x?q=1',
      'x-original-method': 'POST',
      'x-forwarded-uri': '/public/y',
      'x-forwarded-host': 'api.example.com',
      'x-forwarded-proto': 'HTTPS',
    });
    expect(describedRequest(req, 'nginx', undefined)).toEqual({
      method: 'POST',
      target: '/api/x?q=1',
      host: 'api.example.com',
      proto: 'https',
    });
  });

  it('refuses a repeated description (Node joins the lines) instead of reading either', () => {
    const req = requestOf('/auth', 'GET', { 'x-forwarded-uri': '/a, /b', 'x-forwarded-method': 'GET' });
    expect(describedRequest(req, 'caddy', undefined)).toBe('X-Forwarded-Uri missing or repeated');
  });

  it("takes Envoy's path_prefix off, and answers / for the prefix alone", () => {
    expect(describedRequest(requestOf('/ext-authz/api/x?q=1', 'GET', {}), 'envoy', '/ext-authz/')).toMatchObject({
      target: '/api/x?q=1',
    });
    expect(describedRequest(requestOf('/ext-authz', 'GET', {}), 'envoy', '/ext-authz')).toMatchObject({ target: '/' });
    expect(describedRequest(requestOf('/ext-authzed/x', 'GET', {}), 'envoy', '/ext-authz')).toBe(
      'Invalid original request target',
    );
  });
});

describe('trusted proxy addresses', () => {
  it('matches addresses and CIDR blocks of both families, IPv4-mapped peers included', () => {
    const trusted = trustedPeers(['10.0.0.0/8', '192.0.2.7', 'fd00::/8']);
    expect(trusted('10.1.2.3')).toBe(true);
    expect(trusted('::ffff:10.1.2.3')).toBe(true);
    expect(trusted('192.0.2.7')).toBe(true);
    expect(trusted('192.0.2.8')).toBe(false);
    expect(trusted('fd12::1')).toBe(true);
    expect(trusted('fe80::1')).toBe(false);
    expect(trusted(undefined)).toBe(false);
    expect(trusted('not an address')).toBe(false);
  });

  it('accepts only what Node can list, and never throws on any string', () => {
    fc.assert(
      fc.property(fc.string(), (entry) => {
        if (isAddressOrBlock(entry)) expect(() => trustedPeers([entry])).not.toThrow();
      }),
    );
  });
});

describe('forwardAuth in gateway.yaml', () => {
  const problemsOf = (section: string): readonly string[] => {
    try {
      parseGatewayConfig(`${section}\nroutes:\n  - { path: /a, auth: none }\n`, 'g.yaml', {});
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };

  it('names a trusted entry that is not an address or a block', () => {
    const problems = problemsOf('forwardAuth: { proxy: nginx, trustedProxies: ["10.0.0.0/33"] }');
    expect(problems.join('\n')).toMatch(/forwardAuth\.trustedProxies\[0\].*CIDR/);
  });

  it('refuses pathPrefix for a proxy other than Envoy', () => {
    const problems = problemsOf('forwardAuth: { proxy: caddy, trustedProxies: [127.0.0.1], pathPrefix: /x }');
    expect(problems.join('\n')).toMatch(/forwardAuth\.pathPrefix.*only with proxy: envoy/);
  });

  it('needs at least one trusted address', () => {
    expect(problemsOf('forwardAuth: { proxy: traefik, trustedProxies: [] }').join('\n')).toMatch(
      /forwardAuth\.trustedProxies/,
    );
  });
});
