import type { VerifiedToken } from './types.ts';
import type { RevocationEntry } from './revocation-types.ts';

/**
 * What a client's revocation entries cut off, merged. A disable bumps the client's generation in
 * the store and records it (`generation`): every token carrying a lower `client_gen` is revoked,
 * however close in time it was issued. An integer that only grows depends neither on the clock's
 * resolution (a disable, enable, new token and disable again inside one second) nor on the
 * replicas' clocks agreeing. The seconds cut-off (`issuedBefore`) remains for what carries no
 * generation: tokens minted before generations existed, and entries written by a replica of the
 * previous version during a rolling upgrade (those cut off every token by its `iat`).
 */
export interface ClientCutOff {
  /** Tokens with a `client_gen` below this are revoked (0: none). */
  readonly generation: number;
  /** Tokens without `client_gen` issued at or before this second are revoked. */
  readonly issuedBefore: number;
  /** Every token issued at or before this second is revoked (entries without a generation). */
  readonly legacyIssuedBefore: number;
  readonly expiresAt: number;
}

/** The cut-off after `entry` (a `client` entry), given the one known so far. */
export function mergeClientEntry(known: ClientCutOff | undefined, entry: RevocationEntry): ClientCutOff {
  const generation = entry.generation ?? null;
  const issuedBefore = entry.issuedBefore ?? Number.NEGATIVE_INFINITY;
  return {
    generation: Math.max(known?.generation ?? 0, generation ?? 0),
    issuedBefore: Math.max(known?.issuedBefore ?? Number.NEGATIVE_INFINITY, issuedBefore),
    legacyIssuedBefore: Math.max(
      known?.legacyIssuedBefore ?? Number.NEGATIVE_INFINITY,
      generation === null ? issuedBefore : Number.NEGATIVE_INFINITY,
    ),
    expiresAt: Math.max(known?.expiresAt ?? 0, entry.expiresAt),
  };
}

/** Whether the cut-off covers the token. */
export function cutOffCovers(cutOff: ClientCutOff, token: Pick<VerifiedToken, 'iat' | 'clientGen'>): boolean {
  if (token.iat <= cutOff.legacyIssuedBefore) return true;
  return token.clientGen === undefined ? token.iat <= cutOff.issuedBefore : token.clientGen < cutOff.generation;
}
