import type { Logger } from '#common';
import type { ChangeFeed, StoreChange } from '#store';
import type { ClientDirectory } from './clients/client-directory.ts';
import type { Keyring } from './keys/keyring.ts';
import type { RevocationSync } from './revocation/revocation-sync.ts';

/**
 * Applies what any replica changed to this replica's caches as soon as the store announces it:
 * client records, the signing keys (so a key promoted elsewhere signs here too, and the feed
 * announces it to gateways) and, after a lost notification connection, everything, revocations
 * included. Returns unsubscribe.
 */
export function followStoreChanges(opts: {
  store: ChangeFeed;
  clients: ClientDirectory;
  keyring: Keyring;
  sync: RevocationSync;
  log: Logger;
}): () => void {
  const { clients, keyring, sync, log } = opts;
  const background = (what: string, work: Promise<unknown>) => {
    work.catch((error: unknown) => log.error({ err: error }, `${what} after a store change failed`));
  };
  return opts.store.onChange((change: StoreChange) => {
    switch (change.kind) {
      case 'client':
        if (change.id !== null) clients.evict(change.id);
        return;
      case 'project':
        if (change.id !== null) clients.evictProject(change.id);
        return;
      case 'account':
        if (change.id !== null) clients.evictAccount(change.id);
        return;
      case 'signing_keys':
        return background('key reload', keyring.reloadAfterChange());
      case 'resync':
        clients.clear();
        background('key reload', keyring.reloadAfterChange());
        return background('revocation sync', sync.sync());
      case 'api_key':
        return;
    }
  });
}
