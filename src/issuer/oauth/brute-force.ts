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
 * Limits failed client authentications without slowing down correct ones:
 * - an address over its limit is refused before its credentials are even checked;
 * - a client id over its limit still accepts the correct secret (its owner, calling from
 *   elsewhere, keeps working); wrong secrets for it get 429 instead of 401.
 * 256-bit secrets make guessing hopeless anyway; the limits stop noise and spraying.
 */
export class BruteForceGuard {
  readonly #byClient: FailureWindow;
  readonly #byAddress: FailureWindow;

  constructor(clock: Clock, limits: BruteForceLimits = DEFAULT_BRUTE_FORCE_LIMITS) {
    this.#byClient = new FailureWindow(limits.perClient, clock);
    this.#byAddress = new FailureWindow(limits.perAddress, clock);
  }

  /** Throws 429 when the address is blocked. */
  checkAddress(address: string): void {
    const ms = this.#byAddress.blockedFor(address);
    if (ms > 0) throw tooMany(ms);
  }

  /** Records a failure and returns the refusal to send: 429 once a limit was already reached, else `failure`. */
  failed(clientId: string, address: string, failure: OAuthError): OAuthError {
    const ms = Math.max(this.#byClient.blockedFor(clientId), this.#byAddress.blockedFor(address));
    this.#byClient.recordFailure(clientId);
    this.#byAddress.recordFailure(address);
    return ms > 0 ? tooMany(ms) : failure;
  }
}
