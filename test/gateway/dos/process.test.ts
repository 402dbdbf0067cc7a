import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FeedServer, startFeedServer } from '#test/feed-server.ts';
import { type JwksServer, startJwksServer } from '#test/jwks-server.ts';
import { bearer, createTestKey, createTokenKit, TEST_AUDIENCE, TEST_ISSUER, type TokenKit } from '#test/tokens.ts';
import { launch } from '../../cli/cli-runner.ts';
import { type EchoUpstream, startEchoUpstream } from '../support/echo-upstream.ts';

/** The request of issue 17: protected header `{"alg":{"toString":0}}`, no valid anything. */
const ISSUE_17_PATH = '/api/phone/v1/verification?phone_number=1&default_country_code=AU';
const ISSUE_17_TOKEN = 'eyJhbGciOnsidG9TdHJpbmciOjB9fQ.e30.AA';

let upstream: EchoUpstream;
let jwks: JwksServer;
let feed: FeedServer;
let kit: TokenKit;
beforeAll(async () => {
  const key = await createTestKey();
  [upstream, jwks, feed] = await Promise.all([
    startEchoUpstream(),
    startJwksServer([key]),
    startFeedServer(undefined, 2),
  ]);
  kit = await createTokenKit({ now: () => Date.now() }, key);
});
afterAll(async () => {
  await Promise.all([upstream.close(), jwks.close(), feed.close()]);
});

const running: Array<ReturnType<typeof launch>> = [];
afterEach(() => {
  for (const gateway of running.splice(0)) gateway.child.kill('SIGKILL');
});

/** `tokengate gateway` as an operator runs it, on this folder's gateway.yaml; resolves with its URL once ready. */
async function startGatewayProcess(nodeOptions?: string) {
  const gateway = launch('gateway', {
    GATEWAY_CONFIG: join(import.meta.dirname, 'gateway.yaml'),
    UPSTREAM_URL: upstream.url,
    JWKS_URL: jwks.url,
    FEED_URL: feed.url,
    FEED_TOKEN: feed.token,
    ISSUER: TEST_ISSUER,
    AUDIENCE: TEST_AUDIENCE,
    LOG_LEVEL: 'info',
    ...(nodeOptions !== undefined ? { NODE_OPTIONS: nodeOptions } : {}),
  });
  running.push(gateway);
  const [, url] = await gateway.waitFor(/"url":"([^"]+)"[^\n]*"msg":"gateway listening"/, 30_000);
  for (let i = 0; i < 100 && (await fetch(`${url}/readyz`)).status !== 200; i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return { gateway, url: url as string };
}

function get(url: string, token: string): Promise<Response> {
  return fetch(url, { headers: { authorization: bearer(token) }, signal: AbortSignal.timeout(5_000) });
}

describe('a gateway process meeting a request that once ended it', () => {
  it('regression (issue 17): answers the alg {"toString":0} request 401 1024 and answers the next request too', async () => {
    const { gateway, url } = await startGatewayProcess();
    const res = await get(`${url}${ISSUE_17_PATH}`, ISSUE_17_TOKEN);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Invalid bearer token', error_code: '1024', success: false });
    const next = await get(`${url}${ISSUE_17_PATH}`, await kit.goodToken({ scopes: ['phone'] }));
    expect(next.status).toBe(200);
    expect(gateway.child.exitCode).toBeNull();
    expect(gateway.stdout()).not.toContain('uncaught exception');
  });

  it('answers 500 1099 and stays up when a bug of that class throws in its request path', async () => {
    const { gateway, url } = await startGatewayProcess(`--import ${join(import.meta.dirname, 'bug-in-describe.ts')}`);
    const res = await fetch(`${url}/api/au/address/autocomplete?q=1`, {
      headers: { authorization: bearer(ISSUE_17_TOKEN), 'x-request-id': 'issue-17-bug' },
      signal: AbortSignal.timeout(5_000),
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      completions: [],
      message: 'Internal error',
      error_code: '1099',
      success: false,
    });
    expect(res.headers.get('x-request-id')).toBe('issue-17-bug');
    const next = await get(`${url}${ISSUE_17_PATH}`, await kit.goodToken({ scopes: ['phone'] }));
    expect(next.status).toBe(200);
    expect(gateway.child.exitCode).toBeNull();
    await gateway.waitFor(/"msg":"request failed; answered 500"/, 5_000);
    expect(gateway.stdout()).toMatch(/"reqId":"issue-17-bug".*"msg":"request failed; answered 500"/);
    expect(gateway.stdout()).not.toContain(ISSUE_17_TOKEN.slice(0, 12));
  });
});
