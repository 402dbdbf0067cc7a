import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '#common';
import { checkConfig, loadGatewayConfig } from '#gateway';

const here = import.meta.dirname;
const fixture = (name: string) => join(here, name);

function problemsOf(file: string, env: Record<string, string> = {}): readonly string[] {
  try {
    loadGatewayConfig(fixture(file), env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error(`${file} loaded without errors`);
}

describe('loading a valid gateway configuration', () => {
  it('applies documented defaults and derives issuer URLs from the upstream', () => {
    const config = loadGatewayConfig(fixture('valid.yaml'), {
      TEST_UPSTREAM_PORT: '4100',
      PUBLIC_URL: 'https://api.example',
    });
    expect(config.upstream.url).toBe('http://127.0.0.1:4100');
    expect(config.listen).toEqual({ host: '127.0.0.1', port: 0 });
    expect(config.issuer).toMatchObject({
      issuer: 'https://api.example',
      audience: 'https://api.example',
      jwksUrl: 'http://127.0.0.1:4100/.well-known/jwks.json',
      algorithms: ['RS256'],
      clockToleranceSec: 5,
    });
    expect(config.issuer.revocationFeed).toEqual({
      url: 'http://127.0.0.1:4100/internal/revocations',
      token: undefined,
      tokenFile: './data/feed-token',
    });
    expect(config.routes[0]).toEqual({
      path: '/api/au/address/autocomplete',
      methods: ['GET'],
      auth: 'bearer',
      scopes: ['address'],
      match: 'any',
      allowKeySecret: false,
      errorFields: { completions: [] },
      errorShape: 'api',
    });
  });

  it('keeps DPoP nonces off by default, and takes their secret from the file, else DPOP_NONCE_SECRET', () => {
    const env = { DPOP_NONCE_SECRET: 'env-secret-0123456789' };
    expect(loadGatewayConfig(fixture('minimal.yaml'), {}).dpop).toEqual({
      nonce: 'off',
      nonceSecret: undefined,
      publicUrl: 'http://127.0.0.1:8080',
    });
    expect(loadGatewayConfig(fixture('minimal.yaml'), env).dpop.nonceSecret).toBe('env-secret-0123456789');
    expect(loadGatewayConfig(fixture('dpop.yaml'), env).dpop).toEqual({
      nonce: 'required',
      nonceSecret: 'from-the-file-0123456789',
      publicUrl: 'https://api.example.com/edge',
    });
  });

  it('checks DPoP proofs against the issuer identifier unless dpop.publicUrl names another base', () => {
    const env = { PUBLIC_URL: 'https://id.example.com/' };
    expect(loadGatewayConfig(fixture('minimal.yaml'), env).dpop.publicUrl).toBe('https://id.example.com');
    expect(problemsOf('invalid/dpop-public-url.yaml')).toEqual([
      expect.stringMatching(/^dpop\.publicUrl: must be an http\(s\) URL/),
    ]);
  });

  it('interpolates environment variables and types unquoted numbers', () => {
    const config = loadGatewayConfig(fixture('valid.yaml'), {
      TEST_PORT: '8181',
      TEST_UPSTREAM: 'http://10.0.0.1:9000',
    });
    expect(config.listen.port).toBe(8181);
    expect(config.upstream.url).toBe('http://10.0.0.1:9000');
  });

  it('takes the feed credential from REVOCATION_FEED_TOKEN or else $DATA_DIR/feed-token', () => {
    expect(
      loadGatewayConfig(fixture('valid.yaml'), { REVOCATION_FEED_TOKEN: 't0k' }).issuer.revocationFeed,
    ).toMatchObject({ token: 't0k', tokenFile: undefined });
    expect(loadGatewayConfig(fixture('valid.yaml'), { DATA_DIR: '/var/tg' }).issuer.revocationFeed.tokenFile).toBe(
      '/var/tg/feed-token',
    );
  });

  it('returns a deeply frozen object', () => {
    const config = loadGatewayConfig(fixture('valid.yaml'), {});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.routes[1]?.scopes)).toBe(true);
  });

  it('cannot be changed once loaded, at any depth', () => {
    const config = loadGatewayConfig(fixture('valid.yaml'), {});
    expect(() => {
      (config.listen as { port: number }).port = 1;
    }).toThrow(TypeError);
    expect(() => (config.routes as unknown[]).push({})).toThrow(TypeError);
    expect(() => {
      (config.issuer.keySet as { cooldownSec: number }).cooldownSec = 0;
    }).toThrow(TypeError);
    expect(config.listen.port).toBe(0);
  });

  it('reads GATEWAY_CONFIG when no file is given', () => {
    expect(loadGatewayConfig(undefined, { GATEWAY_CONFIG: fixture('valid.yaml') }).routes).toHaveLength(3);
  });

  it('loads the file it is given, not the one GATEWAY_CONFIG names (check-config FILE checks FILE)', () => {
    expect(
      loadGatewayConfig(fixture('valid.yaml'), { GATEWAY_CONFIG: fixture('invalid/unknown-key.yaml') }).routes,
    ).toHaveLength(3);
  });

  it('applies every default docs/configuration.md documents to a file that sets only its routes', () => {
    expect(loadGatewayConfig(fixture('minimal.yaml'), {})).toEqual({
      listen: { host: '127.0.0.1', port: 8080 },
      upstream: {
        url: 'http://127.0.0.1:3000',
        engine: 'http-proxy-3',
        connectTimeoutMs: 2_000,
        responseTimeoutMs: 30_000,
        keepAliveSockets: 256,
        maxSockets: 1_024,
      },
      issuer: {
        issuer: 'http://127.0.0.1:8080',
        audience: 'http://127.0.0.1:8080',
        jwksUrl: 'http://127.0.0.1:3000/.well-known/jwks.json',
        algorithms: ['RS256'],
        clockToleranceSec: 5,
        keySet: { minRefreshSec: 30, maxRefreshSec: 3_600, maxStaleSec: 3_600, cooldownSec: 30, fetchTimeoutMs: 5_000 },
        revocationFeed: {
          url: 'http://127.0.0.1:3000/internal/revocations',
          token: undefined,
          tokenFile: './data/feed-token',
        },
      },
      externalIssuers: [],
      caches: { tokens: { maxEntries: 100_000, maxBytes: 64 * 2 ** 20 }, negative: { maxEntries: 10_000, ttlSec: 30 } },
      revocation: { maxStalenessSec: 30, failOpen: false },
      dpop: { nonce: 'off', nonceSecret: undefined, publicUrl: 'http://127.0.0.1:8080' },
      limits: {
        maxHeaderSize: 16_384,
        maxUrlLength: 8_192,
        maxBodyBytes: 2 ** 20,
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 60_000,
        keepAliveTimeoutMs: 5_000,
      },
      metrics: { host: '127.0.0.1', port: 9464, portIsDefault: true },
      workers: 1,
      drainTimeoutMs: 10_000,
      routes: [
        {
          path: '/a',
          methods: ['GET'],
          auth: 'none',
          scopes: [],
          match: 'any',
          allowKeySecret: false,
          errorFields: {},
          errorShape: 'api',
        },
      ],
    });
  });

  it('expects iss = PUBLIC_URL without its trailing slashes and aud = TOKEN_AUDIENCE, as the upstream signs them', () => {
    const config = loadGatewayConfig(fixture('minimal.yaml'), {
      PUBLIC_URL: 'https://api.example//',
      TOKEN_AUDIENCE: 'urn:validation',
    });
    expect({ issuer: config.issuer.issuer, audience: config.issuer.audience }).toEqual({
      issuer: 'https://api.example',
      audience: 'urn:validation',
    });
  });

  it('keeps a quoted interpolated value a string, however numeric, and types an unquoted one', () => {
    const config = loadGatewayConfig(fixture('quoted-env.yaml'), { TEST_PORT: '8181', TEST_FEED_TOKEN: '12345' });
    expect(config.listen.port).toBe(8181);
    expect(config.issuer.revocationFeed.token).toBe('12345');
  });

  it('accepts the default route map of the local stack', () => {
    const result = checkConfig(join(here, '../../../config/gateway.yaml'), {});
    expect(result).toEqual({ ok: true, output: expect.stringMatching(/^OK /), exitCode: 0 });
  });

  it('answers in the OAuth error shape on the token, revocation and introspection endpoints of the default route map', () => {
    const { routes } = loadGatewayConfig(join(here, '../../../config/gateway.yaml'), {});
    const oauth = routes.filter((r) => r.errorShape === 'oauth').map((r) => r.path);
    expect(oauth).toEqual(['/oauth/token', '/oauth/revoke', '/oauth/introspect']);
  });
});

describe('rejecting an invalid gateway configuration', () => {
  it('names the path, the unknown scope and its line', () => {
    expect(problemsOf('invalid/unknown-scope.yaml')).toEqual(['routes[1].scopes[0]: unknown scope "adress" (line 8)']);
  });

  it('rejects a forwarding engine other than http-proxy-3 and undici, naming its line', () => {
    expect(problemsOf('invalid/unknown-engine.yaml')).toEqual([
      'upstream.engine: Invalid option: expected one of "http-proxy-3"|"undici" (line 3)',
    ]);
  });

  it('rejects an unknown key, naming it and its line', () => {
    expect(problemsOf('invalid/unknown-key.yaml')).toEqual(['upstream.conectTimeoutMs: unknown key (line 3)']);
  });

  it('names a missing environment variable that has no default', () => {
    expect(problemsOf('invalid/missing-env.yaml')).toEqual([
      'upstream.url: environment variable GATEWAY_TEST_UNSET_VARIABLE is not set and has no default (line 4)',
    ]);
  });

  it('reports an unset variable and every other mistake of the file at once, each with its path and line', () => {
    expect(problemsOf('invalid/three-mistakes.yaml')).toEqual([
      'upstream.url: environment variable GATEWAY_TEST_UNSET_VARIABLE is not set and has no default (line 4)',
      expect.stringMatching(/^listen\.port: .*65535.* \(line 2\)$/),
      'routes[0].scopes[0]: unknown scope "adress" (line 6)',
    ]);
  });

  it('names a GATEWAY_PORT that is not a port once, on listen.port, not as a PUBLIC_URL problem', () => {
    expect(problemsOf('minimal.yaml', { GATEWAY_PORT: 'abc' })).toEqual([
      expect.stringMatching(/^listen\.port: GATEWAY_PORT must be a port number \(0-65535\), not "abc"/),
    ]);
  });

  it('reports a bad default from the environment together with the mistakes of the file', () => {
    expect(
      problemsOf('invalid/unknown-scope.yaml', { METRICS_PORT: 'ninety', PUBLIC_URL: 'not-a-url', UPSTREAM_PORT: 'x' }),
    ).toEqual([
      'routes[1].scopes[0]: unknown scope "adress" (line 8)',
      expect.stringMatching(
        /^metrics\.port: METRICS_PORT must be a port number \(0-65535\), not "ninety" \(line \d+\)$/,
      ),
      expect.stringMatching(/^upstream\.url: UPSTREAM_PORT: must be an http\(s\) URL \(line \d+\)$/),
      expect.stringMatching(/^issuer\.issuer: PUBLIC_URL must be an http\(s\) URL, not "not-a-url" \(line \d+\)$/),
    ]);
  });

  it('refuses an unknown DPoP nonce mode and a short nonce secret, from the file or the environment', () => {
    expect(problemsOf('invalid/dpop.yaml')).toEqual([
      'dpop.nonce: Invalid option: expected one of "off"|"supported"|"required" (line 1)',
      'dpop.nonceSecret: Too small: expected string to have >=16 characters (line 1)',
    ]);
    const problems = problemsOf('minimal.yaml', { DPOP_NONCE_SECRET: 'short-secret' });
    expect(problems).toEqual([expect.stringMatching(/^dpop\.nonceSecret: DPOP_NONCE_SECRET must be at least 16/)]);
    expect(problems.join('\n')).not.toContain('short-secret');
  });

  it('gives DPoP replays the Redis of REDIS_URL without a rateLimits section, and refuses one that is not Redis', () => {
    expect(loadGatewayConfig(fixture('minimal.yaml'), { REDIS_URL: 'redis://10.0.0.9:6379' }).dpop.replayRedis).toEqual(
      {
        url: 'redis://10.0.0.9:6379',
        keyPrefix: 'tokengate:',
        timeoutMs: 250,
      },
    );
    expect(loadGatewayConfig(fixture('minimal.yaml'), {}).dpop.replayRedis).toBeUndefined();
    expect(problemsOf('minimal.yaml', { REDIS_URL: 'http://10.0.0.9' })).toEqual([
      expect.stringMatching(/^rateLimits\.redis\.url: REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/),
    ]);
  });

  it('rejects unknown keys at the top level and inside a route (a typo never falls back to a default)', () => {
    expect(problemsOf('invalid/unknown-keys-everywhere.yaml')).toEqual([
      'routes[0].scope: unknown key (line 4)',
      'limit: unknown key (line 1)',
    ]);
  });

  it('refuses routes on /healthz and /readyz, which the gateway answers itself', () => {
    expect(problemsOf('invalid/health-routes.yaml')).toEqual([
      "routes[0].path: reserved for the gateway's own health endpoints (line 2)",
      "routes[1].path: reserved for the gateway's own health endpoints (line 3)",
    ]);
  });

  it('rejects an out-of-range port', () => {
    expect(problemsOf('invalid/bad-port.yaml')).toEqual([
      expect.stringMatching(/^listen\.port: .*65535.* \(line 2\)$/),
    ]);
  });

  it('rejects a route declared twice for the same method', () => {
    expect(problemsOf('invalid/duplicate-route.yaml')).toEqual(['routes[1].path: duplicate route GET /a (line 3)']);
  });

  it('rejects two parameter routes of the same shape, naming both (the router cannot tell them apart)', () => {
    expect(problemsOf('invalid/same-shape-routes.yaml')).toEqual([
      'routes[1].path: duplicate route GET /api/items/:itemId: the same route as routes[0] /api/items/:id (parameter names do not tell routes apart) (line 3)',
    ]);
  });

  it('rejects a route the router cannot build (a wildcard before the end)', () => {
    expect(problemsOf('invalid/wildcard-not-last.yaml')).toEqual([
      'routes[0].path: cannot route /api/*/items: Wildcard must be the last character in the route (line 2)',
    ]);
  });

  it('refuses to expose the upstream /internal routes', () => {
    expect(problemsOf('invalid/internal-route.yaml')).toEqual([
      expect.stringMatching(/^routes\[0\]\.path: .*\/internal.* \(line 2\)$/),
    ]);
  });

  it('refuses scopes on a route without bearer auth', () => {
    expect(problemsOf('invalid/scopes-without-bearer.yaml')).toEqual([
      'routes[0].scopes: scopes need auth: bearer (line 2)',
    ]);
  });

  it('gives the OAuth error shape only to auth: none routes without extra error fields', () => {
    expect(problemsOf('invalid/oauth-shape.yaml')).toEqual([
      'routes[0].errorShape: errorShape: oauth needs auth: none (the OAuth endpoints authenticate their clients themselves) (line 2)',
      'routes[1].errorFields: errorFields extend the documented error body, not errorShape: oauth (line 3)',
    ]);
  });

  it('requires a route map', () => {
    expect(problemsOf('invalid/no-routes.yaml')).toEqual([expect.stringMatching(/^routes: .* \(line 1\)$/)]);
  });

  it('rejects an unknown auth mode', () => {
    expect(problemsOf('invalid/bad-auth.yaml')).toEqual([
      expect.stringMatching(/^routes\[0\]\.auth: .*"bearer".* \(line 2\)$/),
    ]);
  });

  it('never accepts an HMAC algorithm', () => {
    expect(problemsOf('invalid/hmac-algorithm.yaml')).toEqual([
      expect.stringMatching(/^issuer\.algorithms\[0\]: .* \(line 2\)$/),
    ]);
  });

  it('caps the clock tolerance at the 60 s the issuer keeps a revocation past exp (a longer one would re-admit revoked tokens)', () => {
    expect(problemsOf('invalid/tolerance-too-long.yaml')).toEqual([
      expect.stringMatching(/^issuer\.clockToleranceSec: .*60.* \(line 2\)$/),
    ]);
  });

  it("refuses a revocation staleness bound under 5 s (the feed's quiet long poll must answer inside it)", () => {
    expect(problemsOf('invalid/staleness-too-short.yaml')).toEqual([
      expect.stringMatching(/^revocation\.maxStalenessSec: .*5.* \(line 2\)$/),
    ]);
  });

  it('refuses a headers timeout longer than the request timeout (Node would refuse to start the listener)', () => {
    expect(problemsOf('invalid/headers-timeout-over-request.yaml')).toEqual([
      'limits.headersTimeoutMs: must not exceed limits.requestTimeoutMs (line 2)',
    ]);
  });

  it('rejects a non-http upstream URL', () => {
    expect(problemsOf('invalid/bad-url.yaml')).toEqual(['upstream.url: must be an http(s) URL (line 2)']);
  });

  it('refuses credentials in a URL the gateway sends requests to, without echoing them', () => {
    // fetch refuses such a URL and http-proxy-3 drops the credentials: nothing would ever authenticate.
    const problems = problemsOf('invalid/url-credentials.yaml');
    expect(problems).toEqual([
      'upstream.url: must not carry credentials (user:password@): they would not be sent (line 2)',
      'issuer.jwksUrl: must not carry credentials (user:password@): they would not be sent (line 4)',
      'issuer.revocationFeed.url: must not carry credentials (user:password@): they would not be sent (line 5)',
    ]);
    expect(problems.join('\n')).not.toContain('s3cret');
  });

  it('refuses credentials in UPSTREAM_URL when the file leaves upstream.url to it, without echoing them', () => {
    // The key set and feed URLs derive from it: the gateway started and was never ready.
    const problems = problemsOf('invalid/upstream-from-env.yaml', {
      UPSTREAM_URL: 'http://gateway:s3cret@127.0.0.1:3000',
    });
    expect(problems).toEqual([
      'upstream.url: UPSTREAM_URL: must not carry credentials (user:password@): they would not be sent (line 1)',
    ]);
    expect(problems.join('\n')).not.toContain('s3cret');
    expect(problemsOf('invalid/upstream-from-env.yaml', { UPSTREAM_URL: 'not a url' })).toEqual([
      'upstream.url: UPSTREAM_URL: must be an http(s) URL (line 1)',
    ]);
  });

  it('reports YAML syntax errors with their line (fixture kept as .txt so linters skip it)', () => {
    expect(problemsOf('invalid/yaml-syntax.txt')[0]).toMatch(/^YAML: .*\(line \d\)$/);
  });

  it('reports an unreadable file', () => {
    expect(problemsOf('invalid/does-not-exist.yaml')).toEqual(['cannot read file: ENOENT']);
  });

  it('check-config prints every problem and exits 2, the status of an invalid configuration', () => {
    const result = checkConfig(fixture('invalid/unknown-scope.yaml'), {});
    expect(result.exitCode).toBe(2);
    expect(result.output).toContain('routes[1].scopes[0]: unknown scope "adress" (line 8)');
  });
});
