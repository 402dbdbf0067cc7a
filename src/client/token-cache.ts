import { TokenEndpointError, TokenRequestError } from './errors.ts';
import type { ResolvedOptions } from './options.ts';
import { requestToken } from './token-request.ts';

/**
 * The cached token and its single-flight refresh (spec: Authentication, client guidance):
 * reuse one token across calls, obtain the next one `refreshMarginSec` before expiry, and let
 * concurrent callers share one request instead of each asking for a token.
 */
export interface TokenCache {
  get(): Promise<string>;
  /** Forgets the cached token; the next get() requests a new one. */
  invalidate(): void;
  /** Forgets the cached token only if it is still `token` (a concurrent caller may have replaced it). */
  invalidateIf(token: string): void;
}

/** Pause between refresh attempts while the old token is still valid and the endpoint fails. */
const RETRY_AFTER_FAILURE_MS = 5000;

interface Cached {
  readonly token: string;
  readonly refreshAtMs: number;
  readonly expiresAtMs: number;
}

export function createTokenCache(options: ResolvedOptions): TokenCache {
  let current: Cached | undefined;
  let inflight: Promise<string> | undefined;

  async function fetchNext(): Promise<string> {
    // Expiry counts from when the request was sent, so a slow answer errs on the early side.
    const sentAtMs = options.clock.now();
    try {
      const issued = await requestToken(options);
      current = schedule(issued.accessToken, issued.expiresIn, sentAtMs, options.refreshMarginSec);
      return issued.accessToken;
    } catch (error) {
      // Inside the margin the old token is still valid: a transient failure should not fail the
      // caller. A refusal of the request (e.g. invalid_client after disabling) always surfaces.
      const now = options.clock.now();
      if (isTransient(error) && current && now < current.expiresAtMs) {
        // Try again later, not on every call while the token endpoint is down.
        current = { ...current, refreshAtMs: Math.min(now + RETRY_AFTER_FAILURE_MS, current.expiresAtMs) };
        return current.token;
      }
      throw error;
    }
  }

  return {
    get() {
      if (current && options.clock.now() < current.refreshAtMs) return Promise.resolve(current.token);
      inflight ??= fetchNext().finally(() => {
        inflight = undefined;
      });
      return inflight;
    },
    invalidate() {
      current = undefined;
    },
    invalidateIf(token) {
      if (current?.token === token) current = undefined;
    },
  };
}

/**
 * Failures that say nothing about the request itself, so the same request may succeed later: no
 * usable answer, or an OAuth error body with 5xx (the issuer's `server_error` when its store times
 * out) or 429 (`temporarily_unavailable`).
 */
function isTransient(error: unknown): boolean {
  if (error instanceof TokenRequestError) return true;
  return error instanceof TokenEndpointError && (error.status >= 500 || error.status === 429);
}

/** The margin is capped at half the lifetime so a short-lived token is not refreshed on every call. */
function schedule(token: string, expiresInSec: number, sentAtMs: number, marginSec: number): Cached {
  const lifetimeMs = expiresInSec * 1000;
  const marginMs = Math.min(marginSec * 1000, lifetimeMs / 2);
  return { token, expiresAtMs: sentAtMs + lifetimeMs, refreshAtMs: sentAtMs + lifetimeMs - marginMs };
}
