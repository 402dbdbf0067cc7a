import type { RevocationChecker, VerifiedToken } from '#auth';
import type { Revocation } from '#store';

/**
 * The revocations that can still matter, in memory: jti → expiresAt, and client → the latest
 * "issued at or before" second. Used by the upstream's own verification (defence in depth) and
 * by the token endpoint to keep a token issued right after a re-enable out of the old cut-off.
 */
export class LiveRevocations implements RevocationChecker {
  readonly #jtis = new Map<string, number>();
  readonly #clients = new Map<string, { issuedBefore: number; expiresAt: number }>();
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
      else if (entry.issuedBefore !== null) this.#addClient(entry.value, entry.issuedBefore, entry.expiresAt);
    }
  }

  /** Only the jti, client and issue time count (the revocation endpoint has no more than that). */
  isRevoked(token: Pick<VerifiedToken, 'jti' | 'clientId' | 'iat'>): boolean {
    if (this.#jtis.has(token.jti)) return true;
    const cutOff = this.#clients.get(token.clientId);
    return cutOff !== undefined && token.iat <= cutOff.issuedBefore;
  }

  /** The client's latest revocation cut-off (epoch seconds), if any. */
  clientCutOff(clientId: string): number | undefined {
    return this.#clients.get(clientId)?.issuedBefore;
  }

  usable(): boolean {
    return true;
  }

  /** Forgets entries no token can outlive. */
  prune(nowSeconds: number): void {
    for (const [jti, expiresAt] of this.#jtis) if (expiresAt < nowSeconds) this.#jtis.delete(jti);
    for (const [id, entry] of this.#clients) if (entry.expiresAt < nowSeconds) this.#clients.delete(id);
  }

  #addClient(clientId: string, issuedBefore: number, expiresAt: number): void {
    const current = this.#clients.get(clientId);
    if (current && current.issuedBefore >= issuedBefore) return;
    this.#clients.set(clientId, { issuedBefore, expiresAt: Math.max(expiresAt, current?.expiresAt ?? 0) });
  }
}
