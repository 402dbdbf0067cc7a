import { ListenerSet } from './listeners.ts';
import type { StoreChange } from './store-change.ts';

/**
 * Wakes revocation-feed long-polls when a revocation is added, and tells caches what changed
 * (store-change.ts). Embedded: in-process only. PostgreSQL (postgres-signal.ts): LISTEN/NOTIFY,
 * so every replica hears at once.
 */
export interface RevocationSignal {
  subscribe(listener: () => void): () => void;
  /** Called by this process after it committed a revocation. */
  committed(): void;
  subscribeChanges(listener: (change: StoreChange) => void): () => void;
  /**
   * Called by this process after it committed a change: its own listeners hear at once (before
   * the operation answers), whatever the NOTIFY's round trip.
   */
  changed(change: StoreChange): void;
  close(): Promise<void>;
}

export function inProcessSignal(onError: (error: unknown) => void): RevocationSignal {
  const listeners = new ListenerSet(onError);
  const changes = new ListenerSet<StoreChange>(onError);
  return {
    subscribe: (listener) => listeners.add(listener),
    committed: () => listeners.emit(),
    subscribeChanges: (listener) => changes.add(listener),
    changed: (change) => changes.emit(change),
    async close() {
      listeners.clear();
      changes.clear();
    },
  };
}
