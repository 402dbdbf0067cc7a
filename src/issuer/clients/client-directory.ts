import { LRUCache } from 'lru-cache';
import type { Clock } from '#common';
import type { OAuthClient, Project, Store } from '#store';
import { CLIENT_CACHE_TTL_MS } from '../limits.ts';

export interface ClientRecord {
  readonly client: OAuthClient;
  /** Null when the project is gone (its clients go with it; a stale cache entry may still say so). */
  readonly project: Project | null;
}

/** Longer ids cannot be ours (`cli_` + 22 characters); they are refused without a store query. */
const MAX_CLIENT_ID_LENGTH = 128;

/**
 * Client and project records for the token endpoint, cached briefly so the hot path does not
 * hit the store for every token. Freshness: `evict` is called by `setClientEnabled` on this
 * replica and by the revocation listener for `client` entries (a disable on another replica
 * reaches us through the store's revocation notification), so a disabled client is refused at
 * once; an enable on another replica is seen within the TTL. Misses are not cached.
 */
export class ClientDirectory {
  readonly #store: Store;
  readonly #cache: LRUCache<string, ClientRecord>;

  constructor(store: Store, clock: Clock) {
    this.#store = store;
    this.#cache = new LRUCache({ max: 10_000, ttl: CLIENT_CACHE_TTL_MS, ttlResolution: 0, perf: clock });
  }

  async get(clientId: string): Promise<ClientRecord | null> {
    if (clientId.length > MAX_CLIENT_ID_LENGTH) return null;
    const cached = this.#cache.get(clientId);
    if (cached) return cached;
    const client = await this.#store.getClient(clientId);
    if (!client) return null;
    const record = { client, project: await this.#store.getProject(client.projectId) };
    this.#cache.set(clientId, record);
    return record;
  }

  evict(clientId: string): void {
    this.#cache.delete(clientId);
  }
}
