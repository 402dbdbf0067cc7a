import { type Clock, epochSeconds, type Logger } from '#common';
import type { RevocationStore } from '#store';
import type { LiveRevocations } from './live-revocations.ts';

/**
 * Keeps the live set current: pulls `revocationsSince(cursor)` at start and whenever any
 * replica adds a revocation (the store's notification). One pull in flight; a notification
 * during a pull schedules exactly one more. `onClientRevoked` lets the client cache evict.
 */
export class RevocationSync {
  readonly #store: RevocationStore;
  readonly #live: LiveRevocations;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #onClientRevoked: (clientId: string) => void;
  #running: Promise<void> | null = null;
  #again = false;
  #unsubscribe: (() => void) | null = null;

  constructor(opts: {
    store: RevocationStore;
    live: LiveRevocations;
    clock: Clock;
    log: Logger;
    onClientRevoked: (clientId: string) => void;
  }) {
    this.#store = opts.store;
    this.#live = opts.live;
    this.#clock = opts.clock;
    this.#log = opts.log;
    this.#onClientRevoked = opts.onClientRevoked;
  }

  async start(): Promise<void> {
    this.#unsubscribe = this.#store.onRevocation(() => {
      this.sync().catch((error: unknown) => this.#log.error({ err: error }, 'revocation sync failed'));
    });
    await this.sync();
  }

  /** Resolves once every revocation visible when it was called has been applied. */
  sync(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#pull().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  async #pull(): Promise<void> {
    do {
      this.#again = false;
      // The store pages its answer: keep pulling until a page comes back empty.
      for (;;) {
        const entries = await this.#store.revocationsSince(this.#live.cursor, epochSeconds(this.#clock));
        if (entries.length === 0) break;
        this.#live.apply(entries);
        for (const entry of entries) if (entry.kind === 'client') this.#onClientRevoked(entry.value);
      }
    } while (this.#again);
  }
}
