import { type ClientCutOff, cutOffCovers, mergeClientEntry, type RevocationChecker, type VerifiedToken } from '#auth';
import type { Revocation } from '#store';

/**
 * The revocations that can still matter, in memory: jti → expiresAt, and client → its merged
 * cut-off (generation, and seconds for tokens without one: client-cut-off.ts). Used by the
 * upstream's own verification (defence in depth) and by the token endpoint, which never signs a
 * token with a generation this replica already knows to be revoked.
 */
export class LiveRevocations implements RevocationChecker {
  readonly #jtis = new Map<string, number>();
  readonly #clients = new Map<string, ClientCutOff>();
  #cursor = 0;

  get cursor(): number {
    return this.#cursor;
  }

  get size(): number {
    return this.#jtis.size + this.#clients.size;
  }

  apply(entries: readonly Revocation[]): void {
    for (const entry of entries) {
      this.#cursor = Math.max(this.#cursor, entry.seq);
      if (entry.kind === 'jti')
        this.#jtis.set(entry.value, Math.max(entry.expiresAt, this.#jtis.get(entry.value) ?? 0));
      else this.#clients.set(entry.value, mergeClientEntry(this.#clients.get(entry.value), entry));
    }
  }

  /** Only the jti, client, issue time and generation count (the revocation endpoint has no more than that). */
  isRevoked(token: Pick<VerifiedToken, 'jti' | 'clientId' | 'iat' | 'clientGen'>): boolean {
    if (this.#jtis.has(token.jti)) return true;
    const cutOff = this.#clients.get(token.clientId);
    return cutOff !== undefined && cutOffCovers(cutOff, token);
  }

  /** The lowest generation a token of the client may carry and still be valid (0 when none was revoked). */
  clientGeneration(clientId: string): number {
    return this.#clients.get(clientId)?.generation ?? 0;
  }

  usable(): boolean {
    return true;
  }

  /** Forgets entries no token can outlive. */
  prune(nowSeconds: number): void {
    for (const [jti, expiresAt] of this.#jtis) if (expiresAt < nowSeconds) this.#jtis.delete(jti);
    for (const [id, entry] of this.#clients) if (entry.expiresAt < nowSeconds) this.#clients.delete(id);
  }
}
