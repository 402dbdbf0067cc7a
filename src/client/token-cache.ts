import type { ResolvedOptions } from './options.ts';
import { requestToken } from './token-request.ts';
import { nextAttemptAtMs, type TokenTimes, tokenTimes } from './token-timing.ts';

/**
 * The cached token and its single-flight refresh (spec: Authentication, client guidance):
 * reuse one token across calls, obtain the next one in the background from `refreshMarginSec`
 * before expiry while calls go on with the current one, and never have two token requests at
 * once. Callers wait only when no usable token is in hand.
 */
export interface TokenCache {
  get(): Promise<string>;
  /** Forgets the cached token; the next get() requests a new one. */
  invalidate(): void;
  /** Forgets the cached token only if it is still `token` (a concurrent caller may have replaced it). */
  invalidateIf(token: string): void;
}

interface Cached extends TokenTimes {
  readonly token: string;
  /** Failed background refreshes of this token, for the pause before the next one. */
  readonly failures: number;
}

export function createTokenCache(options: ResolvedOptions): TokenCache {
  let current: Cached | undefined;
  let inflight: Promise<string> | undefined;

  async function fetchNext(): Promise<string> {
    const sentAtMs = options.clock.now();
    try {
      const issued = await requestToken(options);
      const times = tokenTimes(issued.expiresIn, sentAtMs, options.refreshMarginSec);
      current = { token: issued.accessToken, failures: 0, ...times };
      return issued.accessToken;
    } catch (error) {
      // The token in hand stays in use until its end; this only sets when to try again.
      if (current) current = afterFailure(current, error, options.clock.now());
      throw error;
    }
  }

  /** The one token request in flight, started if there is none. */
  function request(): Promise<string> {
    inflight ??= fetchNext().finally(() => {
      inflight = undefined;
    });
    return inflight;
  }

  return {
    get() {
      const now = options.clock.now();
      if (!current || now >= current.usableUntilMs) return request();
      if (now >= current.refreshAtMs && !inflight) {
        // Nobody waits for this one, so nobody else would handle its rejection (a caller that
        // joins it once the token ran out gets the error through its own chain).
        request().catch(() => undefined);
      }
      return Promise.resolve(current.token);
    },
    invalidate() {
      current = undefined;
    },
    invalidateIf(token) {
      if (current?.token === token) current = undefined;
    },
  };
}

function afterFailure(cached: Cached, error: unknown, nowMs: number): Cached {
  const failures = cached.failures + 1;
  return { ...cached, failures, refreshAtMs: nextAttemptAtMs(cached, failures, error, nowMs) };
}
