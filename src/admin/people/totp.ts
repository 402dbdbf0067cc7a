import { createHmac, randomBytes } from 'node:crypto';

/**
 * TOTP (RFC 6238) over HOTP (RFC 4226): HMAC-SHA1, 6 digits, 30-second steps, what every
 * authenticator app reads from an `otpauth://` URI. Written on node:crypto rather than taken
 * from a library: the algorithm is a dozen lines, checked against the RFC's test vectors and,
 * in the tests, against an independent implementation (otpauth).
 */
export const TOTP_PERIOD_SEC = 30;
export const TOTP_DIGITS = 6;
/** Codes of one step before and after now are accepted too (clocks and typing take time). */
export const TOTP_SKEW_STEPS = 1;
/** 160 bits, RFC 4226's recommended length for HMAC-SHA1: 32 base32 characters. */
const SECRET_BYTES = 20;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of text.toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new TypeError('not base32');
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** A new shared secret, base32 without padding. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(SECRET_BYTES));
}

/** RFC 4226 section 5.3: dynamic truncation of HMAC-SHA1(secret, counter). */
export function hotp(secret: Buffer, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(code).padStart(digits, '0');
}

/** The time step of an instant (epoch ms). */
export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SEC);
}

/**
 * The step whose code this is, within ±1 step of now, later than `lastStep` (a code accepted once
 * is refused after, and so is any earlier one); null when none. Every candidate is computed, so
 * the time taken does not tell which step matched.
 */
export function matchTotp(secret: string, code: string, nowMs: number, lastStep: number | null): number | null {
  const key = base32Decode(secret);
  const now = totpStep(nowMs);
  let matched: number | null = null;
  for (let step = now - TOTP_SKEW_STEPS; step <= now + TOTP_SKEW_STEPS; step++) {
    const fresh = lastStep === null || step > lastStep;
    if (hotp(key, step) === code && fresh && matched === null) matched = step;
  }
  return matched;
}

/** What an authenticator app scans: `otpauth://totp/tokengate:EMAIL?secret=…&issuer=tokengate`. */
export function otpauthUri(secret: string, email: string): string {
  const label = encodeURIComponent(`tokengate:${email}`);
  const query = new URLSearchParams({
    secret,
    issuer: 'tokengate',
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_SEC),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
