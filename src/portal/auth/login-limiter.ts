import type { Clock } from '#common';

/** Failed sign-ins per source address within the window answered 401; later failures get 429. */
export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Bounds memory under an address-spraying attacker: the oldest windows are dropped. */
const MAX_TRACKED = 10_000;

interface Window {
  failures: number;
  startedAt: number;
}

/** Counts failed sign-ins per key (an address, an email) in a fixed window (fake-clock tested); a success clears nothing. */
export class LoginLimiter {
  readonly #windows = new Map<string, Window>();
  readonly #clock: Clock;
  readonly #limit: number;
  constructor(clock: Clock, limit = LOGIN_FAILURE_LIMIT) {
    this.#clock = clock;
    this.#limit = limit;
  }

  /** Milliseconds until a failure from this address is answered 401 again; 0 when it is now. */
  retryAfterMs(address: string): number {
    const window = this.#live(address);
    if (!window || window.failures < this.#limit) return 0;
    return window.startedAt + LOGIN_WINDOW_MS - this.#clock.now();
  }

  recordFailure(address: string): void {
    const window = this.#live(address) ?? { failures: 0, startedAt: this.#clock.now() };
    window.failures += 1;
    this.#windows.delete(address);
    this.#windows.set(address, window);
    if (this.#windows.size > MAX_TRACKED) {
      const oldest = this.#windows.keys().next().value;
      if (oldest !== undefined) this.#windows.delete(oldest);
    }
  }

  #live(address: string): Window | undefined {
    const window = this.#windows.get(address);
    if (window && window.startedAt + LOGIN_WINDOW_MS <= this.#clock.now()) {
      this.#windows.delete(address);
      return undefined;
    }
    return window;
  }
}
