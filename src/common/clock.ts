/**
 * Time is injected everywhere it matters (expiry, cooldowns, revocation TTLs, key rotation)
 * so tests drive it with a fake clock instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Whole seconds since the epoch, the unit of JWT `iat`/`exp`. */
export function epochSeconds(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}
