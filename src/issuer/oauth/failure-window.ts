import { LRUCache } from 'lru-cache';
import type { Clock } from '#common';

export interface WindowLimit {
  /** Failures allowed per window; the next one is refused. */
  readonly maxFailures: number;
  readonly windowMs: number;
}

interface Count {
  start: number;
  failures: number;
}

/**
 * Fixed-window failure counter per key (a client id or an address), bounded in memory by an LRU:
 * an attacker spraying keys evicts the oldest counters instead of growing the heap.
 */
export class FailureWindow {
  readonly #counts: LRUCache<string, Count>;
  readonly #limit: WindowLimit;
  readonly #clock: Clock;

  constructor(limit: WindowLimit, clock: Clock, maxKeys = 10_000) {
    this.#counts = new LRUCache({ max: maxKeys });
    this.#limit = limit;
    this.#clock = clock;
  }

  /** Milliseconds until the key may try again; 0 when it is not blocked. */
  blockedFor(key: string): number {
    const count = this.#current(key);
    if (!count || count.failures < this.#limit.maxFailures) return 0;
    return count.start + this.#limit.windowMs - this.#clock.now();
  }

  recordFailure(key: string): void {
    const count = this.#current(key);
    if (count) count.failures += 1;
    else this.#counts.set(key, { start: this.#clock.now(), failures: 1 });
  }

  #current(key: string): Count | undefined {
    const count = this.#counts.get(key);
    if (count && this.#clock.now() - count.start >= this.#limit.windowMs) {
      this.#counts.delete(key);
      return undefined;
    }
    return count;
  }
}
