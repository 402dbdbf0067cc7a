import { join } from 'node:path';
import { type FeedServer, startFeedServer } from '#test/feed-server.ts';
import { type JwksServer, startJwksServer } from '#test/jwks-server.ts';
import { createTestKey, TEST_AUDIENCE, TEST_ISSUER, type TestKey } from '#test/tokens.ts';
import { type EchoUpstream, startEchoUpstream } from '../support/echo-upstream.ts';

/** The loopback servers a gateway process (run-gateway.ts) of these tests is wired to. */
export interface ClusterFixture {
  readonly upstream: EchoUpstream;
  readonly jwks: JwksServer;
  readonly feed: FeedServer;
  /** The key the key set holds: tokens signed with it are accepted. */
  readonly key: TestKey;
  /** The environment of `run-gateway.ts` with `workers` and this folder's gateway.yaml (or `config`). */
  env(workers: string, config?: string): NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export async function startClusterFixture(): Promise<ClusterFixture> {
  const key = await createTestKey();
  const [upstream, jwks, feed] = await Promise.all([
    startEchoUpstream(),
    startJwksServer([key]),
    startFeedServer(undefined, 2),
  ]);
  return {
    upstream,
    jwks,
    feed,
    key,
    env: (workers, config = join(import.meta.dirname, 'gateway.yaml')) => ({
      ...process.env,
      GATEWAY_CONFIG: config,
      WORKERS: workers,
      UPSTREAM_URL: upstream.url,
      JWKS_URL: jwks.url,
      FEED_URL: feed.url,
      FEED_TOKEN: feed.token,
      ISSUER: TEST_ISSUER,
      AUDIENCE: TEST_AUDIENCE,
      LOG_LEVEL: 'info',
    }),
    close: async () => void (await Promise.all([upstream.close(), jwks.close(), feed.close()])),
  };
}
