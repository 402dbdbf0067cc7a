import { hashSecret, verifySecret } from './secrets.ts';

/** Compared against in place of a hash that is absent, so that every check costs the same. */
const ABSENT = hashSecret('tokengate-no-such-secret');

/**
 * Whether `secret` is a client's or an API key's current secret, or its previous one while the
 * rotation's overlap lasts (`now < validUntil`). Both hashes are always compared in constant time
 * (an absent one against a dummy) before either result is looked at, so the time taken tells
 * neither which secret matched nor whether there is a previous one.
 */
export function verifyRotatingSecret(
  secret: string,
  current: string | null,
  previous: { readonly hash: string; readonly validUntil: number } | null,
  nowMs: number,
): boolean {
  const currentOk = verifySecret(secret, current ?? ABSENT);
  const previousOk = verifySecret(secret, previous?.hash ?? ABSENT);
  const previousLive = previous !== null && nowMs < previous.validUntil;
  return (current !== null && currentOk) || (previousLive && previousOk);
}
