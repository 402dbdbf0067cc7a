import { idHash, SESSION_ID } from './session-id.ts';
import type { SessionListing } from './repositories/portal-sessions.ts';
import { type SqlRunner, toNumber } from './sql-runner.ts';

/** How stale `last_seen_at` may get before a request writes it: one write a minute, not one a request. */
export const TOUCH_INTERVAL_MS = 60_000;

interface ListingRow {
  seq: unknown;
  id_hash: string;
  user_agent: string | null;
  address: string | null;
  created_at: unknown;
  last_seen_at: unknown;
}

export async function listUserSessions(db: SqlRunner, userId: string, nowMs: number): Promise<SessionListing[]> {
  const rows = await db.query<ListingRow>(
    `SELECT seq, id_hash, user_agent, address, created_at, last_seen_at FROM portal_sessions
      WHERE user_id = $1 AND NOT pending AND expires_at > $2 ORDER BY coalesce(last_seen_at, created_at) DESC, seq DESC`,
    [userId, nowMs],
  );
  return rows.map((row) => ({
    seq: toNumber(row.seq),
    idHash: row.id_hash,
    userAgent: row.user_agent,
    address: row.address,
    createdAt: toNumber(row.created_at),
    lastSeenAt: toNumber(row.last_seen_at ?? row.created_at),
  }));
}

export async function deleteUserSession(db: SqlRunner, userId: string, seq: number): Promise<boolean> {
  if (!Number.isSafeInteger(seq) || seq < 1) return false;
  const rows = await db.query('DELETE FROM portal_sessions WHERE user_id = $1 AND seq = $2 RETURNING seq', [
    userId,
    seq,
  ]);
  return rows.length > 0;
}

export async function touchPortalSession(db: SqlRunner, id: string, address: string, nowMs: number): Promise<void> {
  if (!SESSION_ID.test(id)) return;
  await db.query(
    `UPDATE portal_sessions SET last_seen_at = $2, address = $3
      WHERE id_hash = $1 AND (last_seen_at IS NULL OR last_seen_at <= $4)`,
    [idHash(id), nowMs, address.slice(0, 100), nowMs - TOUCH_INTERVAL_MS],
  );
}
