import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '#common';
import { type FeedServer, startFeedServer } from '#test/feed-server.ts';
import { type JwksServer, startJwksServer } from '#test/jwks-server.ts';
import { stopProcess } from '#test/stack.ts';
import { createTestKey, createTokenKit, TEST_AUDIENCE, TEST_ISSUER, type TokenKit } from '#test/tokens.ts';
import { launch } from '../../cli/cli-runner.ts';
import { type EchoUpstream, startEchoUpstream } from '../support/echo-upstream.ts';
import { uniquePrefix, until } from './support.ts';

const LIMIT = 40;
const CHUNK = 4;

/** Two `tokengate gateway` processes on this folder's configuration, sharing the machine's Redis. */
let jwks: JwksServer;
let feed: FeedServer;
let upstream: EchoUpstream;
let kit: TokenKit;
let gateways: Array<ReturnType<typeof launch>>;
let urls: string[];

beforeAll(async () => {
  const key = await createTestKey('RS256');
  kit = await createTokenKit(systemClock, key);
  [jwks, feed, upstream] = await Promise.all([
    startJwksServer([key]),
    startFeedServer(undefined, 2),
    startEchoUpstream(),
  ]);
  const env = {
    GATEWAY_CONFIG: join(import.meta.dirname, 'gateway.yaml'),
    LOG_LEVEL: 'info',
    UPSTREAM_URL: upstream.url,
    JWKS_URL: jwks.url,
    FEED_URL: feed.url,
    FEED_TOKEN: feed.token,
    ISSUER: TEST_ISSUER,
    AUDIENCE: TEST_AUDIENCE,
    REDIS_URL: 'redis://127.0.0.1:6379',
    REDIS_PREFIX: uniquePrefix(),
  };
  gateways = [launch('gateway', env), launch('gateway', env)];
  urls = await Promise.all(
    gateways.map(async (g) => {
      const [line] = await g.waitFor(/\{[^\n]*"msg":"gateway listening"[^\n]*\}/, 60_000);
      return (JSON.parse(line) as { url: string }).url;
    }),
  );
  for (const url of urls) await until(async () => (await fetch(`${url}/readyz`)).status === 200, 30_000);
}, 120_000);

afterAll(async () => {
  await Promise.all((gateways ?? []).map((g) => stopProcess(g.child)));
  await Promise.all([jwks?.close(), feed?.close(), upstream?.close()]);
});

async function burst(url: string, token: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i += 8) {
    const batch = Array.from({ length: Math.min(8, n - i) }, async () => {
      const res = await fetch(`${url}/api/x`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      return res.status;
    });
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

describe('two gateway processes sharing one limit through Redis', () => {
  it('admit at most the limit plus one chunk per gateway between them', async () => {
    const token = await kit.goodToken({ claims: { sub: 'two-processes', client_id: 'two-processes' } });
    const [a, b] = await Promise.all(urls.map((url) => burst(url, token, 100)));
    const admitted = [...(a ?? []), ...(b ?? [])].filter((s) => s === 200).length;
    expect(admitted).toBeLessThanOrEqual(LIMIT + 2 * CHUNK);
    expect(admitted).toBeGreaterThanOrEqual(LIMIT - 2 * CHUNK);
    expect(gateways.map((g) => g.stdout()).join('\n')).not.toContain('deciding without it');
  });
});
