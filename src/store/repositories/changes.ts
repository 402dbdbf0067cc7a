import type { StoreChange } from '../store-change.ts';

/** Committed changes of what replicas cache (accounts, projects, clients, API keys, signing keys). */
export interface ChangeFeed {
  /**
   * Called after any replica committed a change of an account, project, client, API key or the
   * signing keys (this replica's own before its call resolves), and with `resync` when changes
   * may have been missed. Returns unsubscribe.
   */
  onChange(listener: (change: StoreChange) => void): () => void;
}
