import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Client secrets and API-key secrets: 256 random bits, shown once, stored only as a hash.
 *
 * SHA-256 (not bcrypt/scrypt/argon2) is deliberate: a slow KDF exists to make guessing
 * low-entropy passwords expensive, but these secrets are 256 random bits, so brute force is
 * already infeasible and a fast hash keeps the token endpoint fast.
 */
const SECRET_BYTES = 32;
const PREFIX = 'sha256:';
/** Longer inputs cannot be one of our secrets; refuse them before hashing. */
const MAX_SECRET_LENGTH = 512;

export function generateSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/** `sha256:<base64url digest>`; the prefix lets a later migration change the algorithm. */
export function hashSecret(secret: string): string {
  return PREFIX + createHash('sha256').update(secret, 'utf8').digest('base64url');
}

/** Constant-time comparison; returns false (never throws) on any malformed input. */
export function verifySecret(secret: string, hash: string): boolean {
  if (typeof secret !== 'string' || typeof hash !== 'string') return false;
  if (secret.length === 0 || secret.length > MAX_SECRET_LENGTH) return false;
  const actual = Buffer.from(hashSecret(secret), 'utf8');
  const expected = Buffer.from(hash, 'utf8');
  // Lengths of hashes are public (fixed); only equal-length buffers may be compared.
  if (actual.length !== expected.length) return false;
  return timingSafeEqual(actual, expected);
}
