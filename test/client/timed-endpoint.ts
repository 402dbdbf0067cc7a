import { afterEach, beforeEach } from 'vitest';
import { createTokenClient, type TokenClientOptions } from '../../src/client/index.ts';
import { createFakeClock, type FakeClock } from '#test/fake-clock.ts';
import { type TokenAttempts, watchTokenAttempts } from './token-attempts.ts';
import { startTokenServer, type TokenServer } from './token-server.ts';

/** What each test of the client's timing gets: fresh for every test (the fields are replaced before each). */
export interface TimedEndpoint {
  server: TokenServer;
  clock: FakeClock;
  attempts: TokenAttempts;
  /** When the test started: the fake-clock origin of `atMs` and `attemptTimes`. */
  t0: number;
}

/**
 * A loopback token endpoint, a fake clock and the token requests the client sent, for tests of
 * when the client asks for tokens (background refresh, remembered failures). Registers the
 * before/after hooks of the calling test file.
 */
export function timedTokenEndpoint() {
  const env = {} as TimedEndpoint;
  beforeEach(async () => {
    env.server = await startTokenServer();
    env.clock = createFakeClock();
    env.t0 = env.clock.now();
    env.attempts = watchTokenAttempts(env.server.tokenUrl, env.clock);
  });
  afterEach(async () => {
    await env.server.close();
  });
  return {
    env,
    client(extra: Partial<TokenClientOptions> = {}) {
      return createTokenClient({
        tokenUrl: env.server.tokenUrl,
        clientId: 'cli_1',
        clientSecret: 's3cret',
        clock: env.clock,
        fetch: env.attempts.fetch,
        ...extra,
      });
    },
    /** Moves the fake clock to `ms` milliseconds after the test started. */
    atMs(ms: number): void {
      env.clock.set(env.t0 + ms);
    },
    /** Seconds after the test started at which each token request was sent. */
    attemptTimes(): number[] {
      return env.attempts.sentAtMs.map((ms) => (ms - env.t0) / 1000);
    },
  };
}
