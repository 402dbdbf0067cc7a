import { TokenEndpointError, TokenRequestError } from './errors.ts';

/**
 * When a cached token is refreshed and until when it is used: the numbers behind the cache's
 * background refresh, apart from its state.
 */
export interface TokenTimes {
  /** From here a call starts a background refresh (after a failed one: the next attempt). */
  readonly refreshAtMs: number;
  /** Until here calls go out at once with the token; from here they wait for a new one. */
  readonly usableUntilMs: number;
}

/**
 * A token is not sent in its last 5 s (the gateway's default clock tolerance): the call still
 * has to reach the gateway, whose clock may be ahead of ours. Never more than the refresh margin,
 * so `refreshMarginSec: 0` keeps using the token up to its expiry.
 */
const EXPIRY_SAFETY_MS = 5_000;
/** Pauses after failed background refreshes: 5 s, 10 s, 20 s, then every 30 s. */
const FIRST_RETRY_MS = 5_000;
const LONGEST_RETRY_MS = 30_000;
/**
 * How long a failed token request is remembered when no usable token is in hand. A transient
 * failure (the issuer or the network) may clear any moment: 1 s turns a request per call into at
 * most one a second, and fails calls at most 1 s past the recovery. A refusal holds until an
 * operator acts (re-enables the client, grants the scope): 10 s keeps one process at 6 failed
 * client authentications a minute, under the issuer's 10, past which it answers 429 instead.
 */
const TRANSIENT_FAILURE_KEPT_MS = 1_000;
const REFUSAL_KEPT_MS = 10_000;
/**
 * A 429 or 503 answer's `Retry-After` lengthens both waits, never shortens them, up to 60 s: the
 * issuer's own ones end with its one-minute failure window, and a longer one (a proxy's
 * maintenance page saying an hour) would fail every call that long without asking again.
 */
const LONGEST_RETRY_AFTER_MS = 60_000;

/**
 * Expiry counts from when the request was sent, so a slow answer errs on the early side. The
 * margin is capped at half the lifetime so a short-lived token is not refreshed on every call.
 */
export function tokenTimes(expiresInSec: number, sentAtMs: number, marginSec: number): TokenTimes {
  const lifetimeMs = expiresInSec * 1000;
  const marginMs = Math.min(marginSec * 1000, lifetimeMs / 2);
  const expiresAtMs = sentAtMs + lifetimeMs;
  return { refreshAtMs: expiresAtMs - marginMs, usableUntilMs: expiresAtMs - Math.min(EXPIRY_SAFETY_MS, marginMs) };
}

/**
 * When the next background attempt may start after `failures` failed ones, the last ending now
 * with `error`. A refusal of the request itself (invalid_client after the client was disabled,
 * invalid_scope) would be refused again, and each invalid_client counts towards the issuer's
 * limit of failed client authentications, past which it answers 429 and hides the cause: no more
 * background attempts then; the call that finds the token run out asks once more and gets it.
 */
export function nextAttemptAtMs(times: TokenTimes, failures: number, error: unknown, nowMs: number): number {
  if (!isTransient(error)) return times.usableUntilMs;
  const pauseMs = Math.min(FIRST_RETRY_MS * 2 ** (failures - 1), LONGEST_RETRY_MS);
  return nowMs + Math.max(pauseMs, cappedRetryAfterMs(error));
}

/** Until when calls reject with `error`, a token request that failed now with no usable token in hand. */
export function failureKeptUntilMs(error: unknown, nowMs: number): number {
  if (!isTransient(error)) return nowMs + REFUSAL_KEPT_MS;
  return nowMs + Math.max(TRANSIENT_FAILURE_KEPT_MS, cappedRetryAfterMs(error));
}

function cappedRetryAfterMs(error: unknown): number {
  const ms = error instanceof TokenEndpointError || error instanceof TokenRequestError ? error.retryAfterMs : undefined;
  return Math.min(ms ?? 0, LONGEST_RETRY_AFTER_MS);
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
