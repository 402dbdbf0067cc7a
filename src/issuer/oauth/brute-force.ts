import type { Clock } from '#common';
import { FailureWindow, type WindowLimit } from './failure-window.ts';
import { OAuthError } from './oauth-error.ts';

export interface BruteForceLimits {
  readonly perClient: WindowLimit;
  readonly perAddress: WindowLimit;
}

/** 10 failures a minute per client id, 20 per source address (RFC 6749 §2.3.1, §10.10). */
export const DEFAULT_BRUTE_FORCE_LIMITS: BruteForceLimits = {
  perClient: { maxFailures: 10, windowMs: 60_000 },
  perAddress: { maxFailures: 20, windowMs: 60_000 },
};

function tooMany(ms: number): OAuthError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return new OAuthError('temporarily_unavailable', 'too many failed client authentications; retry later', {
    headers: { 'retry-after': String(seconds) },
  });
}

/**
 * Limits failed client authentications without ever refusing correct ones. Credentials are
 * checked first; only a failure consults and feeds the counters, and gets 429 instead of 401 when
 * its client id (10 a minute) or its source address (20 a minute) had already reached its limit.
 * Correct credentials always succeed, whatever the counters say:
 * - a source address may be shared (a gateway that is not a trusted proxy, a NAT): one caller's
 *   junk must not lock out every correct client behind it;
 * - the owner of a client id under attack keeps working.
 * What this guarantees: whether a failure gets 429 or 401 depends only on how many failures the
 * presented client id and the source address had in the window, never on why this one failed
 * (unknown id, wrong secret, disabled client) nor on the secret, so 429-vs-401 reveals nothing
 * about a secret or a client's existence: each request tests one secret, answered 200 or not,
 * as it would be with no limit at all. What it does not do is cap how fast one address may
 * guess (the address block used to, at the price of refusing everyone behind that address):
 * no limit can without refusing correct credentials, and none needs to, as secrets are 256
 * random bits (a guess succeeds with probability 2^-256 at any rate). The limits tell noisy
 * callers to back off (Retry-After) and mark them in the log (`throttled`).
 */
export class BruteForceGuard {
  readonly #byClient: FailureWindow;
  readonly #byAddress: FailureWindow;

  constructor(clock: Clock, limits: BruteForceLimits = DEFAULT_BRUTE_FORCE_LIMITS) {
    this.#byClient = new FailureWindow(limits.perClient, clock);
    this.#byAddress = new FailureWindow(limits.perAddress, clock);
  }

  /** Records a failure and returns the refusal to send: 429 once a limit was already reached, else `failure`. */
  failed(clientId: string, address: string, failure: OAuthError): OAuthError {
    const ms = Math.max(this.#byClient.blockedFor(clientId), this.#byAddress.blockedFor(address));
    this.#byClient.recordFailure(clientId);
    this.#byAddress.recordFailure(address);
    return ms > 0 ? tooMany(ms) : failure;
  }
}
