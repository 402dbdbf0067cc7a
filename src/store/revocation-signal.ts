import { ListenerSet } from './listeners.ts';

/** NOTIFY is database-wide; the payload is the schema so stores in other schemas ignore it. */
export const REVOCATION_CHANNEL = 'tokengate_revocation';

/**
 * Wakes revocation-feed long-polls when a revocation is added. Embedded: in-process only.
 * PostgreSQL (postgres-signal.ts): LISTEN/NOTIFY, so every replica wakes at once.
 */
export interface RevocationSignal {
  subscribe(listener: () => void): () => void;
  /** Called by this process after it committed a revocation. */
  committed(): void;
  close(): Promise<void>;
}

export function inProcessSignal(onError: (error: unknown) => void): RevocationSignal {
  const listeners = new ListenerSet(onError);
  return {
    subscribe: (listener) => listeners.add(listener),
    committed: () => listeners.emit(),
    async close() {
      listeners.clear();
    },
  };
}
