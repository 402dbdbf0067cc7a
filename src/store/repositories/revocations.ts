export type RevocationKind = 'jti' | 'client';

export interface Revocation {
  /** Monotonic position in the feed; the cursor a gateway resumes from. */
  seq: number;
  kind: RevocationKind;
  /** The token's jti, or the client id. */
  value: string;
  /** For `client`: tokens issued at or before this epoch second are revoked (tokens without `client_gen`). */
  issuedBefore: number | null;
  /** For `client`: tokens whose `client_gen` is below this are revoked; null in entries from before migration 006. */
  generation: number | null;
  /** Epoch seconds after which no token covered by the entry can be valid; then it is pruned. */
  expiresAt: number;
  createdAt: number;
}

export interface NewRevocation {
  kind: RevocationKind;
  value: string;
  issuedBefore: number | null;
  /** For `client`: the generation the disable raised the client to. */
  generation?: number | null;
  expiresAt: number;
}

/** The revocation feed: entries every gateway holds in memory until no token they cover is valid. */
export interface RevocationStore {
  addRevocation(entry: NewRevocation): Promise<Revocation>;
  /** Live entries with seq > cursor, oldest first; at most `limit` (default 1000): resume from the last seq. */
  revocationsSince(cursor: number, nowSeconds: number, limit?: number): Promise<Revocation[]>;
  /** Removes entries whose expiresAt has passed; returns how many. */
  pruneRevocations(nowSeconds: number): Promise<number>;
  /** Called after any replica adds a revocation (PostgreSQL: LISTEN/NOTIFY). Returns unsubscribe. */
  onRevocation(listener: () => void): () => void;
}
