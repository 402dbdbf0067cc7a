import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTokenClient, TokenEndpointError, TokenRequestError } from '../../src/client/index.ts';
import { startTokenServer, type TokenServer } from './token-server.ts';

let server: TokenServer;
beforeEach(async () => {
  server = await startTokenServer();
});
afterEach(async () => {
  await server.close();
});

const SECRET = 'Zx9-secret/with+odd:chars';

describe('token request', () => {
  it('sends grant_type, credentials as form fields, and only the scopes asked for', async () => {
    const c = createTokenClient({
      tokenUrl: server.tokenUrl,
      clientId: 'cli_1',
      clientSecret: SECRET,
      scopes: ['address', 'phone'],
      expiresIn: 600,
    });
    await c.getToken();
    const form = server.tokenRequests[0]?.form;
    expect(Object.fromEntries(form ?? [])).toEqual({
      grant_type: 'client_credentials',
      client_id: 'cli_1',
      client_secret: SECRET,
      scope: 'address phone',
      expires_in: '600',
    });
    expect(server.tokenRequests[0]?.authorization).toBeUndefined();
  });

  it('omits scope and expires_in when not asked, leaving the server defaults', async () => {
    await createTokenClient({ tokenUrl: server.tokenUrl, clientId: 'cli_1', clientSecret: SECRET }).getToken();
    const form = server.tokenRequests[0]?.form;
    expect(form?.has('scope')).toBe(false);
    expect(form?.has('expires_in')).toBe(false);
  });

  it('sends HTTP Basic with form-encoded id and secret when asked, and no secret in the body', async () => {
    const c = createTokenClient({
      tokenUrl: server.tokenUrl,
      clientId: 'cli 1',
      clientSecret: SECRET,
      authMethod: 'client_secret_basic',
    });
    await c.getToken();
    const record = server.tokenRequests[0];
    const decoded = Buffer.from(record?.authorization?.replace('Basic ', '') ?? '', 'base64').toString();
    expect(decoded).toBe(`cli+1:${encodeURIComponent(SECRET).replace(/%20/g, '+')}`);
    expect(record?.form.has('client_secret')).toBe(false);
  });

  it('rejects with a typed TokenEndpointError carrying error and error_description', async () => {
    server.failWith = {
      status: 401,
      body: JSON.stringify({ error: 'invalid_client', error_description: 'client authentication failed' }),
    };
    const c = createTokenClient({ tokenUrl: server.tokenUrl, clientId: 'cli_1', clientSecret: SECRET });
    const error = await c.getToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenEndpointError);
    expect(error).toMatchObject({
      status: 401,
      error: 'invalid_client',
      errorDescription: 'client authentication failed',
    });
    expect(String((error as Error).message)).not.toContain(SECRET);
  });

  it('reports invalid_scope from a 400 answer', async () => {
    server.failWith = { status: 400, body: JSON.stringify({ error: 'invalid_scope' }) };
    const c = createTokenClient({
      tokenUrl: server.tokenUrl,
      clientId: 'cli_1',
      clientSecret: SECRET,
      scopes: ['email'],
    });
    await expect(c.getToken()).rejects.toMatchObject({
      status: 400,
      error: 'invalid_scope',
      errorDescription: undefined,
    });
  });

  it('reports a non-JSON or malformed answer as invalid_response with its status', async () => {
    // A client per answer: one client would answer the second call with the first failure, remembered for 1 s.
    const client = () => createTokenClient({ tokenUrl: server.tokenUrl, clientId: 'cli_1', clientSecret: SECRET });
    server.failWith = { status: 502, body: '<html>bad gateway</html>', contentType: 'text/html' };
    await expect(client().getToken()).rejects.toMatchObject({
      name: 'TokenRequestError',
      kind: 'invalid_response',
      status: 502,
    });
    server.failWith = { status: 200, body: JSON.stringify({ access_token: 'x', token_type: 'mac', expires_in: 900 }) };
    await expect(client().getToken()).rejects.toMatchObject({ kind: 'invalid_response', status: 200 });
  });

  it('refuses an access_token that no Authorization header can carry, and never quotes it in an error', async () => {
    for (const token of ['tok SECRETPART', 'tok\r\nx-injected: SECRETPART', 'tokSECRETPART\u00e9']) {
      server.failWith = {
        status: 200,
        body: JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 900 }),
      };
      const c = createTokenClient({ tokenUrl: server.tokenUrl, clientId: 'cli_1', clientSecret: SECRET });
      const error = await c.fetch(server.apiUrl).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'TokenRequestError', kind: 'invalid_response', status: 200 });
      expect(`${String(error)} ${String((error as Error).cause)}`).not.toContain('SECRETPART');
    }
    expect(server.apiCalls).toHaveLength(0);
  });

  it('refuses an oversized token response instead of buffering it', async () => {
    server.failWith = {
      status: 200,
      body: JSON.stringify({ access_token: 'x'.repeat(100_000), token_type: 'Bearer', expires_in: 900 }),
    };
    const c = createTokenClient({ tokenUrl: server.tokenUrl, clientId: 'cli_1', clientSecret: SECRET });
    await expect(c.getToken()).rejects.toMatchObject({ kind: 'invalid_response' });
  });

  it.each([301, 302, 303, 307, 308])(
    'does not follow a %i redirect from the token endpoint: the secret goes nowhere else',
    async (status) => {
      const elsewhere: IncomingMessage[] = [];
      const sink = createHttpServer((req, res) => {
        elsewhere.push(req);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: 'stolen', token_type: 'Bearer', expires_in: 900 }));
      });
      await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
      const issuer = createHttpServer((_req, res) => {
        res.writeHead(status, { location: `http://127.0.0.1:${(sink.address() as AddressInfo).port}/collect` });
        res.end();
      });
      await new Promise<void>((resolve) => issuer.listen(0, '127.0.0.1', resolve));
      try {
        for (const authMethod of ['client_secret_post', 'client_secret_basic'] as const) {
          const tokenUrl = `http://127.0.0.1:${(issuer.address() as AddressInfo).port}/oauth/token`;
          const c = createTokenClient({ tokenUrl, clientId: 'cli_1', clientSecret: SECRET, authMethod });
          await expect(c.getToken()).rejects.toMatchObject({
            name: 'TokenRequestError',
            kind: 'invalid_response',
            status,
          });
        }
        expect(elsewhere).toHaveLength(0);
      } finally {
        await Promise.all([sink, issuer].map((s) => new Promise((resolve) => s.close(resolve))));
      }
    },
  );

  it('times out a token request the server never answers', async () => {
    server.hang = true;
    const c = createTokenClient({ tokenUrl: server.tokenUrl, clientId: 'cli_1', clientSecret: SECRET, timeoutMs: 150 });
    const error = await c.getToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect(error).toMatchObject({ kind: 'timeout', message: 'token request timed out after 150 ms' });
  });

  it('reports a refused connection as a network error', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const c = createTokenClient({
      tokenUrl: `http://127.0.0.1:${port}/oauth/token`,
      clientId: 'cli_1',
      clientSecret: SECRET,
    });
    await expect(c.getToken()).rejects.toMatchObject({ name: 'TokenRequestError', kind: 'network' });
  });

  it('throws a TypeError at construction for misuse', () => {
    const base = { tokenUrl: server.tokenUrl, clientId: 'cli_1', clientSecret: SECRET };
    expect(() => createTokenClient({ ...base, tokenUrl: 'ftp://x/token' })).toThrow(TypeError);
    expect(() => createTokenClient({ ...base, tokenUrl: '/relative' })).toThrow(
      'tokenUrl must be an absolute http(s) URL',
    );
    expect(() => createTokenClient({ ...base, clientSecret: '' })).toThrow('clientSecret must be a non-empty string');
    expect(() => createTokenClient({ ...base, expiresIn: 3601 })).toThrow('expiresIn');
    expect(() => createTokenClient({ ...base, expiresIn: 1.5 })).toThrow('expiresIn');
    expect(() => createTokenClient({ ...base, refreshMarginSec: -1 })).toThrow('refreshMarginSec');
    expect(() => createTokenClient({ ...base, timeoutMs: 0 })).toThrow('timeoutMs');
  });

  it('refuses plain http to a non-loopback host unless explicitly allowed (spec: use HTTPS)', () => {
    const base = { clientId: 'cli_1', clientSecret: SECRET };
    expect(() => createTokenClient({ ...base, tokenUrl: 'http://auth.example.com/oauth/token' })).toThrow(
      'tokenUrl uses plain http to a non-loopback host; use https (or set allowInsecureHttp: true)',
    );
    expect(() =>
      createTokenClient({ ...base, tokenUrl: 'http://auth.example.com/oauth/token', allowInsecureHttp: true }),
    ).not.toThrow();
    expect(() => createTokenClient({ ...base, tokenUrl: 'https://auth.example.com/oauth/token' })).not.toThrow();
    expect(() => createTokenClient({ ...base, tokenUrl: 'http://localhost:8080/oauth/token' })).not.toThrow();
    expect(() => createTokenClient({ ...base, tokenUrl: 'http://[::1]:8080/oauth/token' })).not.toThrow();
    expect(() => createTokenClient({ ...base, tokenUrl: 'http://127.0.0.2:8080/oauth/token' })).not.toThrow();
    expect(() => createTokenClient({ ...base, tokenUrl: 'http://0x7f.1:8080/oauth/token' })).not.toThrow();
  });

  it('refuses a tokenUrl or request URL with user:password@ without quoting the password', async () => {
    const base = { clientId: 'cli_1', clientSecret: SECRET };
    const tokenUrl = server.tokenUrl.replace('http://', 'http://cli_1:PASSWORD@');
    expect(() => createTokenClient({ ...base, tokenUrl })).toThrow(
      new TypeError('tokenUrl must not contain user:password@ (give the credentials as clientId and clientSecret)'),
    );
    const c = createTokenClient({ ...base, tokenUrl: server.tokenUrl });
    const error = await c.fetch(server.apiUrl.replace('http://', 'http://u:PASSWORD@')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(`${String(error)} ${String((error as Error).cause)}`).not.toContain('PASSWORD');
    expect(server.tokenRequests).toHaveLength(0);
  });

  it('refuses a request URL that cannot be parsed without carrying it, password and all, in the error (regression: TypeError.input held it)', async () => {
    const c = createTokenClient({ clientId: 'cli_1', clientSecret: SECRET, tokenUrl: server.tokenUrl });
    // Port out of range: not a URL, and the URL parser's error kept the whole string in `input`, which loggers print.
    const error = await c.fetch('http://u:PASSWORD@127.0.0.1:99999/api').catch((e: unknown) => e);
    expect(error).toEqual(new TypeError('request URL must be an absolute http(s) URL'));
    expect(JSON.stringify({ ...(error as object), message: String(error) })).not.toContain('PASSWORD');
    expect(server.tokenRequests).toHaveLength(0);
  });

  it('does not take a host name that merely starts with 127. for loopback (regression: http://127.example.com was allowed)', () => {
    const base = { clientId: 'cli_1', clientSecret: SECRET };
    for (const host of ['127.example.com', '127.0.0.1.nip.io', '127.0.0.1x']) {
      expect(() => createTokenClient({ ...base, tokenUrl: `http://${host}/oauth/token` }), host).toThrow(
        'tokenUrl uses plain http to a non-loopback host',
      );
    }
  });
});
