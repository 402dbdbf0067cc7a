import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Checks `Authorization: Bearer <admin token>`. Both sides are hashed first so the comparison
 * is constant-time whatever the lengths (timingSafeEqual needs equal-length inputs).
 */
export function createAdminAuth(adminToken: string): (req: IncomingMessage) => boolean {
  const expected = digest(adminToken);
  return (req) => {
    const header = req.headers.authorization;
    if (typeof header !== 'string') return false;
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match?.[1]) return false;
    return timingSafeEqual(digest(match[1]), expected);
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
