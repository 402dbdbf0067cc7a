import { systemClock } from '#common';
import { type ClientCutOff, cutOffCovers, mergeClientEntry } from './client-cut-off.ts';
import type { VerifiedToken } from './types.ts';
import type { RevocationEntry, RevocationSet, RevocationSetOptions } from './revocation-types.ts';

/**
 * The revocation set's defaults (README "Revocations"). Exported so that a host exposing these
 * options (the gateway's `revocation` section) documents and applies the same values.
 */
export const REVOCATION_SET_DEFAULTS = { maxStalenessSec: 30, failOpen: false } as const;

/**
 * Every live revocation, in memory (the set stays small: an entry is forgotten once no token it
 * covers can still be valid). By jti, and by client: tokens of an earlier generation (client-cut-off.ts). O(1) per
 * check. Staleness is measured from the last sync; past the bound, fail-closed stops answering.
 */
export function createRevocationSet(options: RevocationSetOptions = {}): RevocationSet {
  const clock = options.clock ?? systemClock;
  const maxStalenessMs = (options.maxStalenessSec ?? REVOCATION_SET_DEFAULTS.maxStalenessSec) * 1000;
  if (!Number.isFinite(maxStalenessMs) || maxStalenessMs < 0)
    throw new TypeError('"maxStalenessSec" must be a non-negative number');
  const failOpen = options.failOpen ?? REVOCATION_SET_DEFAULTS.failOpen;
  const jtis = new Map<string, number>();
  const clients = new Map<string, ClientCutOff>();
  let syncedAt: number | null = null;

  function prune(nowSec: number): void {
    for (const [jti, expiresAt] of jtis) if (expiresAt < nowSec) jtis.delete(jti);
    for (const [client, entry] of clients) if (entry.expiresAt < nowSec) clients.delete(client);
  }

  function add(entry: RevocationEntry): void {
    if (entry.kind === 'jti') {
      jtis.set(entry.value, Math.max(entry.expiresAt, jtis.get(entry.value) ?? 0));
      return;
    }
    if (entry.kind !== 'client') return;
    clients.set(entry.value, mergeClientEntry(clients.get(entry.value), entry));
  }

  const stale = (): boolean => syncedAt === null || clock.now() - syncedAt > maxStalenessMs;

  return {
    isRevoked(token: VerifiedToken): boolean {
      if (jtis.has(token.jti)) return true;
      const client = clients.get(token.clientId);
      return client !== undefined && cutOffCovers(client, token);
    },
    usable: () => failOpen || !stale(),
    apply(entries) {
      for (const entry of entries) add(entry);
      prune(Math.floor(clock.now() / 1000));
    },
    markSynced() {
      syncedAt = clock.now();
    },
    status() {
      const now = clock.now();
      return {
        size: jtis.size + clients.size,
        synced: syncedAt !== null,
        lagSec: syncedAt === null ? null : Math.floor((now - syncedAt) / 1000),
        stale: stale(),
      };
    },
  };
}
