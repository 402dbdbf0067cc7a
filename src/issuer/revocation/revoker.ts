import { type Clock, epochSeconds, type Logger, revocationChannel } from '#common';
import type { RevocationStore } from '#store';
import { MAX_LIFETIME_SEC, SKEW_SEC } from '../limits.ts';
import type { RevocationSync } from './revocation-sync.ts';

/**
 * Writes revocations to the store (every replica and gateway learns of them through the feed
 * and notifications) and applies them locally before returning, so this replica refuses at once.
 * An entry lives until no token it covers can still be valid (exp, or issue time + 3600 s, + skew).
 */
export class Revoker {
  readonly #store: RevocationStore;
  readonly #sync: RevocationSync;
  readonly #clock: Clock;
  readonly #log: Logger;

  constructor(opts: { store: RevocationStore; sync: RevocationSync; clock: Clock; log: Logger }) {
    this.#store = opts.store;
    this.#sync = opts.sync;
    this.#clock = opts.clock;
    this.#log = opts.log;
  }

  /** One token; `exp` when known (from a verified JWT), else the longest a token can live. */
  async revokeJti(jti: string, exp?: number): Promise<void> {
    const expiresAt = (exp ?? epochSeconds(this.#clock) + MAX_LIFETIME_SEC) + SKEW_SEC;
    await this.#store.addRevocation({ kind: 'jti', value: jti, issuedBefore: null, expiresAt });
    await this.#sync.sync();
    revocationChannel.publish({ kind: 'token' });
    this.#log.info({ jti }, 'token revoked');
  }

  /**
   * Every token of the client below `generation` (the one its disable raised it to). `issuedBefore`
   * (this second) covers tokens minted before generations existed, and is what gateways of the
   * previous version read.
   */
  async revokeClient(clientId: string, generation: number): Promise<void> {
    const now = epochSeconds(this.#clock);
    await this.#store.addRevocation({
      kind: 'client',
      value: clientId,
      issuedBefore: now,
      generation,
      expiresAt: now + MAX_LIFETIME_SEC + SKEW_SEC,
    });
    await this.#sync.sync();
    revocationChannel.publish({ kind: 'client' });
    this.#log.info({ clientId, generation }, 'client tokens revoked');
  }
}
