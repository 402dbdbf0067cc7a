import type { Clock } from '#common';
import { LoginLimiter } from './login-limiter.ts';

/** Failed sign-ins within 15 minutes after which further attempts are refused (429) until the window ends. */
export const SIGN_IN_LIMITS = { address: 20, email: 5, account: 20 } as const;

/**
 * Passkey sign-in pages one address may open within 15 minutes: each stores a challenge before
 * anyone has proved anything, so the store's rows per address are bounded (they live 5 minutes).
 */
export const PASSKEY_CHALLENGES_PER_ADDRESS = 60;

/**
 * The account portal's limits on failed sign-ins, per source address, per email given and per
 * account of that email. While any is reached the password is not even checked, so guessing stops
 * (the right password waits too). An unknown email counts like a known one, so the answers never
 * tell whether it exists; only the per-account count, which needs an account's known emails to
 * reach, is for known emails alone. In the memory of each upstream replica.
 */
export class SignInLimits {
  readonly #address: LoginLimiter;
  readonly #email: LoginLimiter;
  readonly #account: LoginLimiter;
  readonly #challenges: LoginLimiter;
  constructor(clock: Clock) {
    this.#challenges = new LoginLimiter(clock, PASSKEY_CHALLENGES_PER_ADDRESS);
    this.#address = new LoginLimiter(clock, SIGN_IN_LIMITS.address);
    this.#email = new LoginLimiter(clock, SIGN_IN_LIMITS.email);
    this.#account = new LoginLimiter(clock, SIGN_IN_LIMITS.account);
  }

  /**
   * Milliseconds until an attempt is checked again; 0 when it is now. The email is null for a
   * passkey not known yet (a sign-in without a password): the address's limit alone applies.
   */
  retryAfterMs(address: string, email: string | null, accountIds: readonly string[]): number {
    return Math.max(
      this.#address.retryAfterMs(address),
      email === null ? 0 : this.#email.retryAfterMs(email),
      ...accountIds.map((id) => this.#account.retryAfterMs(id)),
    );
  }

  recordFailure(address: string, email: string | null, accountIds: readonly string[]): void {
    this.#address.recordFailure(address);
    if (email !== null) this.#email.recordFailure(email);
    for (const id of accountIds) this.#account.recordFailure(id);
  }

  /**
   * Counts a passkey sign-in challenge asked for from the address and returns 0, or, once the
   * limit is reached, the milliseconds until one may be asked for again (none is counted then).
   */
  takeChallenge(address: string): number {
    const waitMs = this.#challenges.retryAfterMs(address);
    if (waitMs === 0) this.#challenges.recordFailure(address);
    return waitMs;
  }
}
