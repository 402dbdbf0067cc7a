import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxyServer } from 'http-proxy-3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authFailureResponse, authorizeAsync, createVerifier, type Verifier } from '#auth';
import { createFakeClock } from '#test/fake-clock.ts';
import {
  createTokenKit,
  simpleRevocations,
  staticKeys,
  TEST_AUDIENCE,
  TEST_ISSUER,
  type TokenKit,
} from '#test/tokens.ts';

// The embedding example of src/auth/README.md, verbatim from here down to the end of `protect`.
function protect(verifier: Verifier, upstream: string): Server {
  const proxy = createProxyServer({ target: upstream });
  return createServer(async (req, res) => {
    const decision = await authorizeAsync(verifier, req.headers.authorization, { scopes: ['address'], match: 'any' });
    if (!decision.ok) {
      const { status, headers, body } = authFailureResponse(decision);
      res.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(body));
      return;
    }
    req.headers['x-client-id'] = decision.token.clientId;
    proxy.web(req, res);
  });
}

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

describe('embedding the plugin in a plain node:http + http-proxy-3 server', () => {
  let kit: TokenKit;
  let upstream: Server;
  let gateway: Server;
  let url: string;
  beforeAll(async () => {
    const clock = createFakeClock(Date.now());
    kit = await createTokenKit(clock);
    upstream = createServer((req, res) => res.end(`hello ${req.headers['x-client-id']}`));
    const keys = staticKeys(kit.key);
    const verifier = createVerifier({
      issuer: TEST_ISSUER,
      audience: TEST_AUDIENCE,
      algorithms: ['RS256'],
      keys,
      revocations: simpleRevocations(),
    });
    gateway = protect(verifier, await listen(upstream));
    url = await listen(gateway);
  });
  afterAll(() => {
    gateway.closeAllConnections();
    upstream.closeAllConnections();
    gateway.close();
    upstream.close();
  });

  it('forwards a request with a good token and the identity the plugin returned', async () => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${await kit.goodToken()}` } });
    expect(await res.text()).toBe('hello client-1');
  });

  it('answers a request without a token with 401 JSON and a Bearer challenge', async () => {
    const res = await fetch(url);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="tokengate"');
    expect(await res.json()).toMatchObject({ error_code: '1040', success: false });
  });

  it('answers a token without the route scope with 401 1026', async () => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${await kit.tokenWithScopes(['phone'])}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error_code: '1026' });
  });

  it('is the example src/auth/README.md shows, verbatim', () => {
    const source = readFileSync(new URL(import.meta.url), 'utf8');
    const example = /\n(function protect\([\s\S]*?\n\})\n/.exec(source)?.[1];
    const guide = readFileSync(new URL('../../src/auth/README.md', import.meta.url), 'utf8');
    expect(example).toBeDefined();
    expect(guide).toContain(example);
  });
});
