import { LRUCache } from 'lru-cache';
import type { Clock } from '#common';
import type { ClientStore, OAuthClient, Project, ProjectStore } from '#store';
import { CLIENT_CACHE_TTL_MS } from '../limits.ts';

export interface ClientRecord {
  readonly client: OAuthClient;
  /** Null when the project is gone (its clients go with it; a stale cache entry may still say so). */
  readonly project: Project | null;
}

/** A store lookup in flight; `evict` marks it, since what it read may predate the eviction. */
interface Lookup {
  readonly clientId: string;
  evicted: boolean;
}

/** Longer ids cannot be ours (`cli_` + 22 characters); they are refused without a store query. */
const MAX_CLIENT_ID_LENGTH = 128;

/**
 * Client and project records for the token endpoint, cached briefly so the hot path does not
 * hit the store for every token. Freshness: every replica's store announces each change of a
 * client, project or account (store-changes.ts calls `evict`, `evictProject`, `evictAccount`;
 * a lost notification connection `clear`s), and the revocation listener evicts on `client`
 * entries, so a change made on any replica holds here within the notification's delay. The TTL
 * is only the safety net for an announcement that never came. Misses are not cached.
 * A record whose lookup was in flight during an eviction of its client may hold the state from
 * before a disable: it is still returned but never cached, and `isCurrent` says so.
 */
export class ClientDirectory {
  readonly #store: ClientStore & ProjectStore;
  readonly #cache: LRUCache<string, ClientRecord>;
  readonly #lookups = new Set<Lookup>();
  readonly #stale = new WeakSet<ClientRecord>();

  constructor(store: ClientStore & ProjectStore, clock: Clock) {
    this.#store = store;
    this.#cache = new LRUCache({ max: 10_000, ttl: CLIENT_CACHE_TTL_MS, ttlResolution: 0, perf: clock });
  }

  /** `fresh`: read the store even when a cached record exists (a private_key_jwt client's keys). */
  async get(clientId: string, options: { fresh?: boolean } = {}): Promise<ClientRecord | null> {
    if (clientId.length > MAX_CLIENT_ID_LENGTH) return null;
    const cached = options.fresh ? undefined : this.#cache.get(clientId);
    if (cached) return cached;
    const lookup: Lookup = { clientId, evicted: false };
    this.#lookups.add(lookup);
    try {
      const client = await this.#store.getClient(clientId);
      if (!client) return null;
      const record = { client, project: await this.#store.getProject(client.projectId) };
      if (lookup.evicted) this.#stale.add(record);
      else this.#cache.set(clientId, record);
      return record;
    } finally {
      this.#lookups.delete(lookup);
    }
  }

  /** The record as the store has it now (the cached one is dropped first). */
  reload(clientId: string): Promise<ClientRecord | null> {
    this.evict(clientId);
    return this.get(clientId);
  }

  /** False once the record's client was evicted during or after its lookup: read it again before trusting it. */
  isCurrent(record: ClientRecord): boolean {
    return !this.#stale.has(record);
  }

  /** Every record of the project (deleted, or changed): its clients are read again. */
  evictProject(projectId: string): void {
    this.#evictWhere((record) => record.client.projectId === projectId);
  }

  /** Every record of a project of the account (its plan or state changed). */
  evictAccount(accountId: string): void {
    this.#evictWhere((record) => record.project?.accountId === accountId);
  }

  /** Everything: changes may have been missed. */
  clear(): void {
    this.#evictWhere(() => true);
  }

  /** Lookups in flight cannot be told apart before they return: they are all treated as evicted. */
  #evictWhere(matches: (record: ClientRecord) => boolean): void {
    for (const [clientId, record] of this.#cache.entries()) if (matches(record)) this.evict(clientId);
    for (const lookup of this.#lookups) lookup.evicted = true;
  }

  evict(clientId: string): void {
    const cached = this.#cache.peek(clientId, { allowStale: true });
    if (cached) this.#stale.add(cached);
    this.#cache.delete(clientId);
    for (const lookup of this.#lookups) if (lookup.clientId === clientId) lookup.evicted = true;
  }
}
