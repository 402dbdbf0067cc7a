import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * `Authorization: Bearer <feed token>`, compared in constant time (both sides hashed first so
 * lengths never differ and the comparison leaks nothing about the token).
 */
export function feedAuthorized(authorization: string | undefined, feedToken: string): boolean {
  if (authorization === undefined || authorization.length > 1024) return false;
  const match = /^Bearer +(\S+)\s*$/i.exec(authorization);
  if (!match?.[1]) return false;
  return timingSafeEqual(digest(match[1]), digest(feedToken));
}
