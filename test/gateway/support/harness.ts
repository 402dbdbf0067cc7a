import { join } from 'node:path';
import { loadGatewayConfig, type RunningGateway, startGateway } from '#gateway';
import type { FakeClock } from '#test/fake-clock.ts';
import { startJwksServer, type JwksServer } from '#test/jwks-server.ts';
import { createTestKey, createTokenKit, TEST_AUDIENCE, TEST_ISSUER, type TokenKit } from '#test/tokens.ts';
import { type EchoUpstream, startEchoUpstream } from './echo-upstream.ts';
import { type FeedServer, startFeedServer } from '#test/feed-server.ts';
import type { Engine } from './engines.ts';
import { createLogSink, type LogSink } from './log-sink.ts';

/**
 * A gateway started from a feature folder's own `gateway.yaml`, wired to real loopback servers:
 * a key-set server, a revocation feed and an echo upstream. The fixture reads their URLs from
 * `${UPSTREAM_URL}`, `${JWKS_URL}`, `${FEED_URL}`, `${FEED_TOKEN}`, `${ISSUER}`, `${AUDIENCE}`.
 */
export interface Harness {
  readonly gateway: RunningGateway;
  readonly upstream: EchoUpstream;
  readonly jwks: JwksServer;
  readonly feed: FeedServer;
  readonly kit: TokenKit;
  readonly logs: LogSink;
  readonly configFile: string;
  readonly env: Record<string, string>;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly clock?: FakeClock;
  readonly env?: Record<string, string>;
  /** Start without waiting for /readyz (tests of readiness itself). */
  readonly skipReady?: boolean;
  readonly watch?: boolean;
  readonly watchFile?: boolean;
  /** A config file other than `<dir>/gateway.yaml` (reload tests edit a temporary copy). */
  readonly file?: string;
  /** The forwarding engine, for fixtures whose `upstream.engine` is `${UPSTREAM_ENGINE:-http-proxy-3}`. */
  readonly engine?: Engine;
  /** How long the revocation feed holds a poll at most (default 2 s). */
  readonly feedHoldSec?: number;
}

export async function startHarness(dir: string, options: HarnessOptions = {}): Promise<Harness> {
  const key = await createTestKey('RS256');
  const kit = await createTokenKit(options.clock ?? { now: () => Date.now() }, key);
  const [jwks, feed, upstream] = await Promise.all([
    startJwksServer([key]),
    startFeedServer(undefined, options.feedHoldSec ?? 2),
    startEchoUpstream(),
  ]);
  const env = {
    UPSTREAM_URL: upstream.url,
    JWKS_URL: jwks.url,
    FEED_URL: feed.url,
    FEED_TOKEN: feed.token,
    ISSUER: TEST_ISSUER,
    AUDIENCE: TEST_AUDIENCE,
    ...(options.engine ? { UPSTREAM_ENGINE: options.engine } : {}),
    ...options.env,
  };
  const configFile = options.file ?? join(dir, 'gateway.yaml');
  const logs = createLogSink();
  const gateway = await startGateway(loadGatewayConfig(configFile, env), {
    log: logs.log,
    configFile,
    env,
    watch: options.watch ?? false,
    watchFile: options.watchFile ?? true,
    reloadReadyTimeoutMs: 1_000,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  if (!options.skipReady) await gateway.ready();
  return {
    gateway,
    upstream,
    jwks,
    feed,
    kit,
    logs,
    configFile,
    env,
    fetch: (path, init) => fetch(`${gateway.url}${path}`, init),
    async close() {
      await gateway.close();
      await Promise.all([jwks.close(), feed.close(), upstream.close()]);
    },
  };
}
