import type { Clock } from '#common';

/** A Clock tests move by hand: expiry, cooldowns and staleness without sleeping. */
export interface FakeClock extends Clock {
  /** Moves time forward by `ms` milliseconds. */
  advance(ms: number): void;
  /** Moves time forward by `sec` seconds. */
  advanceSec(sec: number): void;
  set(ms: number): void;
  /** Whole seconds since the epoch (JWT NumericDate). */
  nowSec(): number;
}

/** Starts at a fixed, whole-second instant so epoch-second arithmetic in tests is exact. */
export function createFakeClock(startMs = Date.UTC(2026, 0, 15, 12, 0, 0)): FakeClock {
  let current = startMs;
  return {
    now: () => current,
    nowSec: () => Math.floor(current / 1000),
    advance(ms) {
      current += ms;
    },
    advanceSec(sec) {
      current += sec * 1000;
    },
    set(ms) {
      current = ms;
    },
  };
}
