import { createHash, randomBytes } from 'node:crypto';
import { base32Encode, TOTP_DIGITS } from './totp.ts';

/** How many recovery codes a person gets at once; each works once. */
export const RECOVERY_CODE_COUNT = 10;
/** The longest code field read: a recovery code with spaces around, or a TOTP code. */
export const CODE_MAX_LENGTH = 40;

/** What the person typed, read: a 6-digit TOTP code, a recovery code, or nothing usable. */
export type TypedCode =
  | { readonly kind: 'totp'; readonly code: string }
  | { readonly kind: 'recovery'; readonly code: string }
  | { readonly kind: 'none' };

const TOTP_CODE = new RegExp(`^\\d{${TOTP_DIGITS}}$`);
/** Four groups of four base32 characters (80 bits), dashes and case optional. */
const RECOVERY_CODE = /^[a-z2-7]{16}$/;

/**
 * Reads the code field (untrusted): spaces and dashes are ignored (apps show `123 456`, recovery
 * codes come as `abcd-efgh-…`), case does not matter. Anything else, or anything too long, is none.
 */
export function readCode(input: string): TypedCode {
  if (input.length > CODE_MAX_LENGTH) return { kind: 'none' };
  const compact = input.replace(/[\s-]/g, '').toLowerCase();
  if (TOTP_CODE.test(compact)) return { kind: 'totp', code: compact };
  if (RECOVERY_CODE.test(compact)) return { kind: 'recovery', code: compact };
  return { kind: 'none' };
}

/** Ten new codes as shown once: `abcd-efgh-ijkl-mnop` (80 random bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const compact = base32Encode(randomBytes(10)).toLowerCase();
    return compact.match(/.{4}/g)?.join('-') ?? compact;
  });
}

/**
 * The stored form: a SHA-256 of the compact code, bound to the person. A fast hash is right for
 * 80 random bits (as for client secrets); the user id keeps one person's digest useless for another.
 */
export function recoveryCodeHash(userId: string, compactCode: string): string {
  return createHash('sha256').update(`tokengate recovery code\0${userId}\0${compactCode}`).digest('hex');
}
