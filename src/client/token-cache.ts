import type { ResolvedOptions } from './options.ts';
import { rememberedError } from './remembered-error.ts';
import { requestToken } from './token-request.ts';
import type { TokenType } from './token-response.ts';
import { failureKeptUntilMs, nextAttemptAtMs, type TokenTimes, tokenTimes } from './token-timing.ts';

/**
 * The cached token and its single-flight refresh (spec: Authentication, client guidance):
 * reuse one token across calls, obtain the next one in the background from `refreshMarginSec`
 * before expiry while calls go on with the current one, and never have two token requests at
 * once. Callers wait only when no usable token is in hand; when the request they waited for
 * failed, calls for a short while reject with its error instead of each asking again.
 */
/** A token and the scheme it is presented with. */
export interface HeldToken {
  readonly token: string;
  readonly type: TokenType;
}

export interface TokenCache {
  get(): Promise<HeldToken>;
  /**
   * Forgets the cached token; the next get() requests a new one. A remembered failure stays: it
   * says how the token endpoint answered, not which token is held.
   */
  invalidate(): void;
  /** Forgets the cached token only if it is still `token` (a concurrent caller may have replaced it). */
  invalidateIf(token: string): void;
}

interface Cached extends TokenTimes, HeldToken {
  /** Failed background refreshes of this token, for the pause before the next one. */
  readonly failures: number;
}

/** The last token request failed with no usable token in hand: calls until `untilMs` get its error. */
interface Failure {
  readonly error: unknown;
  readonly atMs: number;
  readonly untilMs: number;
}

export function createTokenCache(options: ResolvedOptions): TokenCache {
  let current: Cached | undefined;
  let inflight: Promise<HeldToken> | undefined;
  let failed: Failure | undefined;

  async function fetchNext(): Promise<HeldToken> {
    const sentAtMs = options.clock.now();
    try {
      const issued = await requestToken(options);
      const times = tokenTimes(issued.expiresIn, sentAtMs, options.refreshMarginSec);
      const held = { token: issued.accessToken, type: issued.tokenType };
      current = { ...held, failures: 0, ...times };
      failed = undefined;
      return held;
    } catch (error) {
      const now = options.clock.now();
      // A token still usable stays in use until its end; this only sets when to try again.
      // Without one, the failure is remembered, so that calls do not each ask the issuer.
      if (current && now < current.usableUntilMs) current = afterFailure(current, error, now);
      else failed = { error, atMs: now, untilMs: failureKeptUntilMs(error, now) };
      throw error;
    }
  }

  /** The remembered failure as a rejection, while it holds. */
  function remembered(now: number): Promise<HeldToken> | undefined {
    if (!failed || now >= failed.untilMs) return undefined;
    return Promise.reject(rememberedError(failed.error, now - failed.atMs, failed.untilMs - now));
  }

  /** The one token request in flight, started if there is none. */
  function request(): Promise<HeldToken> {
    inflight ??= fetchNext().finally(() => {
      inflight = undefined;
    });
    return inflight;
  }

  return {
    get() {
      const now = options.clock.now();
      if (!current || now >= current.usableUntilMs) return inflight ?? remembered(now) ?? request();
      if (now >= current.refreshAtMs && !inflight) {
        // Nobody waits for this one, so nobody else would handle its rejection (a caller that
        // joins it once the token ran out gets the error through its own chain).
        request().catch(() => undefined);
      }
      return Promise.resolve({ token: current.token, type: current.type });
    },
    // No failure is remembered while a usable token is held (one that lands forgets it), so the
    // retry after a 1030 or revoked 1024, which drops that token, asks the issuer whatever a
    // failed background refresh said. Only a token that had run out may meet a remembered
    // failure here: that of the request sent to replace it.
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
