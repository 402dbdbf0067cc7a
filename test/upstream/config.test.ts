import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN_UNUSABLE, ConfigError } from '#common';
import { loadUpstreamConfig } from '../../src/upstream/config.ts';

describe('upstream configuration', () => {
  it('applies the documented defaults of the operator contract', () => {
    const config = loadUpstreamConfig({}, '/srv/app');
    expect(config).toEqual({
      host: '127.0.0.1',
      upstreamPort: 3000,
      adminHost: '127.0.0.1',
      adminPort: 3001,
      metrics: { host: '127.0.0.1', port: 9465, portIsDefault: true },
      dataDir: '/srv/app/data',
      addressDataDir: '/srv/app/data',
      databaseUrl: undefined,
      databaseTimeoutMs: 5000,
      publicUrl: 'http://127.0.0.1:8080',
      audience: 'http://127.0.0.1:8080',
      signingAlg: 'RS256',
      logLevel: 'info',
      logFormat: 'json',
      adminToken: undefined,
      feedToken: undefined,
      keyEncryptionKey: undefined,
      dpopNonce: { mode: 'off', secret: undefined },
      tracing: undefined,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads the DPoP nonce mode and secret for the issuer', () => {
    const config = loadUpstreamConfig({ DPOP_NONCE: 'required', DPOP_NONCE_SECRET: 'nonce-secret-0123456789' });
    expect(config.dpopNonce).toEqual({ mode: 'required', secret: 'nonce-secret-0123456789' });
  });

  it('derives PUBLIC_URL from GATEWAY_PORT and the audience from PUBLIC_URL', () => {
    expect(loadUpstreamConfig({ GATEWAY_PORT: '9090' }).publicUrl).toBe('http://127.0.0.1:9090');
    const config = loadUpstreamConfig({ PUBLIC_URL: 'https://api.example.com/' });
    expect(config.publicUrl).toBe('https://api.example.com');
    expect(config.audience).toBe('https://api.example.com');
    expect(loadUpstreamConfig({ TOKEN_AUDIENCE: 'urn:validation' }).audience).toBe('urn:validation');
  });

  it('reports every invalid variable at once, by name, without echoing secrets', () => {
    const attempt = () =>
      loadUpstreamConfig({
        UPSTREAM_PORT: 'abc',
        ADMIN_PORT: '70000',
        SIGNING_ALG: 'HS256',
        LOG_LEVEL: 'loud',
        PUBLIC_URL: 'ftp://x',
        DATABASE_URL: 'mysql://user:hunter2@db/x',
        KEY_ENCRYPTION_KEY: 'short',
        DPOP_NONCE: 'always',
        DPOP_NONCE_SECRET: 'short-nonce',
      });
    expect(attempt).toThrow(ConfigError);
    const problems = (() => {
      try {
        attempt();
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    })();
    expect(problems).toEqual([
      'PUBLIC_URL: must use http: or https: (got "ftp:")',
      'UPSTREAM_PORT: must be a port number 0..65535 (got "abc")',
      'ADMIN_PORT: must be a port number 0..65535 (got "70000")',
      'DATABASE_URL: must be a postgres:// or postgresql:// connection string',
      'SIGNING_ALG: must be one of RS256, ES256, EdDSA (got "HS256")',
      'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
      'KEY_ENCRYPTION_KEY: must be at least 16 characters long',
      'DPOP_NONCE: must be one of off, supported, required (got "always")',
      'DPOP_NONCE_SECRET: must be at least 16 characters long',
    ]);
    expect(problems.join('\n')).not.toContain('hunter2');
    expect(problems.join('\n')).not.toContain('short-nonce');
  });

  it('stops at start-up on a DATABASE_URL whose password holds an unescaped / # or ?, naming the variable but not the password', () => {
    const problem =
      'DATABASE_URL: not a valid URL (percent-encode reserved characters in the password: / as %2F, # as %23, ? as %3F; or pass the password in PGPASSWORD)';
    for (const password of [
      'Q3x/Zk9+pW1rT0yLm8vB2nC4dF6gH7jK',
      '/Zk9+pW1rT0yLm8v',
      '12#Zk9pW1rT0yLm8',
      'Zk9?pW1rT0yLm8',
    ]) {
      const attempt = () =>
        loadUpstreamConfig({ DATABASE_URL: `postgres://tokengate:${password}@postgres:5432/tokengate` });
      expect(attempt).toThrow(new ConfigError([problem]));
    }
    for (const url of [
      'postgres://tokengate:Q3x%2FZk9+pW1rT0yLm8@postgres:5432/tokengate',
      'postgres://tokengate:p@ss@postgres/tokengate',
      'postgres://tokengate@postgres/tokengate',
      'postgres://tokengate@/tokengate?host=/run/postgresql',
      'postgresql://[::1]:5432/tokengate',
    ]) {
      expect(loadUpstreamConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    }
  });

  it('refuses an ADMIN_TOKEN the admin API could never match (whitespace or control characters inside), without echoing it', () => {
    for (const token of [
      'correct horse battery staple',
      'tab\tinside',
      'nul\u0000inside',
      'nbsp\u00a0inside',
      'del\u007finside',
      'euro€inside',
      'zero\u200bwidth',
    ]) {
      expect(() => loadUpstreamConfig({ ADMIN_TOKEN: token })).toThrow(new ConfigError([ADMIN_TOKEN_UNUSABLE]));
    }
  });

  it('accepts an ADMIN_TOKEN of any length, trimmed (start-up only warns about a short one)', () => {
    expect(loadUpstreamConfig({ ADMIN_TOKEN: 'a' }).adminToken).toBe('a');
    expect(loadUpstreamConfig({ ADMIN_TOKEN: ' tökén-with-latin-1 \n' }).adminToken).toBe('tökén-with-latin-1');
  });

  it('reads TRUSTED_PROXIES as comma-separated addresses and CIDRs', () => {
    expect(loadUpstreamConfig({}).trustedProxies).toBeUndefined();
    expect(loadUpstreamConfig({ TRUSTED_PROXIES: ' 10.0.0.0/8, 172.18.0.3 ,fd00::/8,::1,' }).trustedProxies).toEqual([
      '10.0.0.0/8',
      '172.18.0.3',
      'fd00::/8',
      '::1',
    ]);
  });

  it('stops at start-up on a TRUSTED_PROXIES entry that is not an address or a CIDR, naming it', () => {
    for (const [value, named] of [
      ['10.0.0.0/8,gateway', 'gateway'],
      ['10.0.0.0/33', '10.0.0.0/33'],
      ['::1/129', '::1/129'],
      ['10.0.0.0/8/8', '10.0.0.0/8/8'],
      [' , ', ' , '],
    ]) {
      expect(() => loadUpstreamConfig({ TRUSTED_PROXIES: value })).toThrow(
        new ConfigError([
          `TRUSTED_PROXIES: must be comma-separated IP addresses or CIDRs such as 10.0.0.0/8 (got "${named?.trim()}")`,
        ]),
      );
    }
  });

  it('reads DATABASE_TIMEOUT_MS as whole milliseconds from 100 to 600000', () => {
    expect(loadUpstreamConfig({ DATABASE_TIMEOUT_MS: '1500' }).databaseTimeoutMs).toBe(1500);
    for (const value of ['99', '600001', '2s', '1.5']) {
      expect(() => loadUpstreamConfig({ DATABASE_TIMEOUT_MS: value })).toThrow(
        new ConfigError([`DATABASE_TIMEOUT_MS: must be a whole number of milliseconds 100..600000 (got "${value}")`]),
      );
    }
  });

  it('treats empty variables as unset', () => {
    expect(loadUpstreamConfig({ UPSTREAM_PORT: '', ADMIN_TOKEN: '' }).upstreamPort).toBe(3000);
    expect(loadUpstreamConfig({ ADMIN_TOKEN: '  ' }).adminToken).toBeUndefined();
  });

  it('reports every bad value at once in the order of the reference, the email lookup and proxies included', () => {
    expect(() =>
      loadUpstreamConfig({
        GATEWAY_PORT: '80a',
        HOST: '   ',
        DATABASE_TIMEOUT_MS: '2s',
        LOG_FORMAT: 'text',
        REVOCATION_FEED_TOKEN: 'short-secret',
        TRUSTED_PROXIES: '10.0.0.0/8,gateway',
        EMAIL_DNS_TIMEOUT_MS: '0',
      }),
    ).toThrow(
      new ConfigError([
        'GATEWAY_PORT: must be a port number 0..65535 (got "80a")',
        'DATABASE_TIMEOUT_MS: must be a whole number of milliseconds 100..600000 (got "2s")',
        'LOG_FORMAT: must be one of json, pretty (got "text")',
        'REVOCATION_FEED_TOKEN: must be at least 16 characters long',
        'TRUSTED_PROXIES: must be comma-separated IP addresses or CIDRs such as 10.0.0.0/8 (got "gateway")',
        'EMAIL_DNS_TIMEOUT_MS: must be a whole number of milliseconds 1..30000 (got "0")',
      ]),
    );
  });

  it('is frozen all the way down: no part of the running upstream can change it', () => {
    const config = loadUpstreamConfig({ TRUSTED_PROXIES: '10.0.0.0/8' });
    expect(() => {
      (config as { upstreamPort: number }).upstreamPort = 1;
    }).toThrow(TypeError);
    expect(() => {
      (config.metrics as { port: number }).port = 1;
    }).toThrow(TypeError);
    expect(() => (config.trustedProxies as string[]).push('0.0.0.0/0')).toThrow(TypeError);
    expect(config.trustedProxies).toEqual(['10.0.0.0/8']);
  });
});
