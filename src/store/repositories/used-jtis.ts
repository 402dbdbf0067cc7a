/** The JWT ids already used (client assertions, DPoP proofs), shared by every replica against replays. */
export interface UsedJtiStore {
  /**
   * Records a JWT id (a client assertion's, a DPoP proof's) as used within `scope` until
   * `expiresAtSec`: true the first time, false for a replay, on whichever replica it was used.
   */
  claimJti(scope: string, jti: string, expiresAtSec: number): Promise<boolean>;
  /** Forgets used JWT ids whose JWT has expired; returns how many. */
  pruneJtis(nowSeconds: number): Promise<number>;
}
