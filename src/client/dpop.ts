import type { Clock } from '#common';
import { type DpopKeyPair, dpopSigner } from './dpop-key.ts';
import { createDpopNonces } from './dpop-nonces.ts';
import { signProof } from './dpop-proof.ts';

/** One client's DPoP state: its key and the nonces servers gave it (RFC 9449). */
export interface Dpop {
  /** A fresh proof for one request, with the latest nonce of the URL's origin. */
  proof(htm: string, url: URL, accessToken?: string): Promise<string>;
  /** Keeps an answer's `DPoP-Nonce` for its origin; gives back the valid nonce it carried, if any. */
  learn(url: URL, headers: Headers): string | undefined;
}

export function createDpop(option: true | DpopKeyPair, clock: Clock): Dpop {
  const signer = dpopSigner(option);
  const nonces = createDpopNonces();
  return {
    async proof(htm, url, accessToken) {
      return signProof(await signer(), { htm, url, accessToken, nonce: nonces.get(url), nowMs: clock.now() });
    },
    learn: (url, headers) => nonces.learn(url, headers),
  };
}
