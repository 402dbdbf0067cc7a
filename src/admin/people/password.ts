import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { COMMON_PASSWORDS } from './common-passwords.ts';

/**
 * Passwords are stored as scrypt hashes (node:crypto, memory-hard: N=2^15, r=8, p=1 takes 32 MiB
 * and tens of milliseconds a guess), with a random 16-byte salt, as `scrypt$N$r$p$salt$key`
 * (base64url), so the cost can rise later and old hashes still verify.
 */
interface Cost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}
const COST: Cost = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
/** scrypt needs 128·N·r bytes; Node's default bound (32 MiB) is just short of it. */
const MAX_MEMORY = 64 * 1024 * 1024;

export const PASSWORD_MIN_LENGTH = 10;
/** Bounds the work one sign-in costs (scrypt reads the whole password). */
export const PASSWORD_MAX_LENGTH = 200;

function derive(password: string, salt: Buffer, cost: Cost): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...cost, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Compares in constant time; a malformed or absent hash is compared against a dummy, so both cost the same. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parsed = stored ? parse(stored) : undefined;
  const { salt, key, cost } = parsed ?? DUMMY;
  const given = await derive(password.slice(0, PASSWORD_MAX_LENGTH), salt, cost);
  return timingSafeEqual(given, key) && parsed !== undefined;
}

const DUMMY: { salt: Buffer; key: Buffer; cost: Cost } = {
  salt: Buffer.alloc(16),
  key: Buffer.alloc(KEY_LENGTH),
  cost: COST,
};

function parse(stored: string): typeof DUMMY | undefined {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return undefined;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (![cost.N, cost.r, cost.p].every(Number.isSafeInteger)) return undefined;
  const keyBytes = Buffer.from(key, 'base64url');
  return keyBytes.length === KEY_LENGTH ? { salt: Buffer.from(salt, 'base64url'), key: keyBytes, cost } : undefined;
}

/** Why a new password is refused, said to the person; undefined when it is acceptable. */
export function passwordProblem(password: string, email: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  const folded = password.trim().toLowerCase();
  if (COMMON_PASSWORDS.has(folded)) return 'That password is on a list of common passwords. Choose another.';
  const local = email.split('@', 1)[0] ?? '';
  if (folded === email || (local.length >= 4 && folded.includes(local)))
    return 'Do not use your email address in your password.';
  if (new Set(folded).size < 4) return 'Use more different characters.';
  return undefined;
}
