import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time string equality whatever the lengths: both sides are hashed first, because
 * timingSafeEqual needs equal-length inputs and a length check would leak the length.
 */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
