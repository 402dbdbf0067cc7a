import { describe, expect, it } from 'vitest';
import { createEmailRoute, emailRouteOptionsFromEnv } from '#validation';

describe('email route settings from the environment', () => {
  it('uses the system resolvers and the default timeout when nothing is set', () => {
    expect(emailRouteOptionsFromEnv({})).toEqual({});
  });

  it('reads a comma-separated server list and a timeout', () => {
    expect(
      emailRouteOptionsFromEnv({ EMAIL_DNS_SERVERS: '127.0.0.1:5353, 192.0.2.53', EMAIL_DNS_TIMEOUT_MS: '800' }),
    ).toEqual({
      dnsServers: ['127.0.0.1:5353', '192.0.2.53'],
      dnsTimeoutMs: 800,
    });
  });

  it('refuses a timeout that is not an integer, naming the variable', () => {
    expect(() => emailRouteOptionsFromEnv({ EMAIL_DNS_TIMEOUT_MS: '1.5s' })).toThrow(/EMAIL_DNS_TIMEOUT_MS/);
  });

  it('refuses a server that is not an IP address when the route is created, not on first use', () => {
    expect(() => createEmailRoute(emailRouteOptionsFromEnv({ EMAIL_DNS_SERVERS: 'dns.example.com' }))).toThrow();
  });
});
