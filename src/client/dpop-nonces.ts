/**
 * The latest `DPoP-Nonce` each server gave (RFC 9449 §8, §9), by origin: every later proof to
 * that origin carries it. A server may hand out a new one with any answer, so the last one wins.
 */
export interface DpopNonces {
  /** The nonce to put in a proof for `url`, if its origin gave one. */
  get(url: URL): string | undefined;
  /** Keeps the answer's `DPoP-Nonce`, when it has a valid one; gives it back (undefined otherwise). */
  learn(url: URL, headers: Headers): string | undefined;
}

/**
 * RFC 9449 §8.1: `nonce = 1*NQCHAR`. Bounded too: the value goes into every proof, and a server
 * that needs more than this is not one this client talks to.
 */
const NONCE = /^[\x21\x23-\x5b\x5d-\x7e]{1,1024}$/;
/** Origins remembered at most: a client talks to a handful; the oldest is dropped past this. */
const MAX_ORIGINS = 100;

export function isValidNonce(value: string): boolean {
  return NONCE.test(value);
}

export function createDpopNonces(): DpopNonces {
  const byOrigin = new Map<string, string>();
  return {
    get: (url) => byOrigin.get(url.origin),
    learn(url, headers) {
      const nonce = headers.get('dpop-nonce');
      if (nonce === null || !isValidNonce(nonce)) return undefined;
      // Re-inserted so the Map's order is the order of last use, oldest first.
      byOrigin.delete(url.origin);
      byOrigin.set(url.origin, nonce);
      if (byOrigin.size > MAX_ORIGINS) byOrigin.delete(byOrigin.keys().next().value as string);
      return nonce;
    },
  };
}
