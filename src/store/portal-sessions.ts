import { randomBytes } from 'node:crypto';
import { type Queryable, type SqlRunner, toNumber } from './sql-runner.ts';
import type { NewSessionOptions, PortalSession, PortalSessionStore } from './repositories/portal-sessions.ts';
import type { RepositoryContext } from './repository-context.ts';
import { deleteUserSession, listUserSessions, touchPortalSession } from './portal-session-list.ts';
import { idHash, SESSION_ID } from './session-id.ts';

/**
 * Bounds the table: only failed sign-ins are rate-limited, so a leaked admin token in a loop could
 * otherwise add sessions for ever. Creating one beyond the bound removes the oldest.
 */
export const MAX_PORTAL_SESSIONS = 1000;
/**
 * A person's sessions are bounded on their own: one person signing in in a loop removes only their
 * own oldest sessions, never other people's.
 */
export const MAX_SESSIONS_PER_USER = 20;
/** Expired sessions one prune removes at most (every sign-in prunes once), so no call does unbounded work. */
export const DEFAULT_SESSION_PRUNE_LIMIT = 100;
const MAX_SESSION_PRUNE_LIMIT = 10_000;

interface SessionRow {
  user_id: string | null;
  csrf_token: string;
  flash: string | null;
  expires_at: unknown;
  pending: boolean;
  last_seen_at: unknown;
  created_at: unknown;
}

function requireInteger(name: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new TypeError(`${name} must be an integer in ${min}..${max}`);
}

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Prunes some expired sessions, inserts the new one and removes the oldest beyond the bound, in one transaction. */
export async function createPortalSession(
  db: SqlRunner,
  ttlMs: number,
  nowMs: number,
  userId: string | null = null,
  options: NewSessionOptions = {},
  max = userId === null ? MAX_PORTAL_SESSIONS : MAX_SESSIONS_PER_USER,
): Promise<PortalSession> {
  requireInteger('ttlMs', ttlMs, 1);
  requireInteger('max', max, 1);
  const session: PortalSession = {
    id: randomToken(),
    csrfToken: randomToken(),
    expiresAt: nowMs + ttlMs,
    flash: null,
    userId,
    pending: options.pending ?? false,
    lastSeenAt: nowMs,
  };
  return db.transaction(async (tx) => {
    await pruneExpired(tx, nowMs, DEFAULT_SESSION_PRUNE_LIMIT);
    await tx.query(
      `INSERT INTO portal_sessions (id_hash, csrf_token, created_at, expires_at, user_id, pending, user_agent, address, last_seen_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $3)`,
      [
        idHash(session.id),
        session.csrfToken,
        nowMs,
        session.expiresAt,
        userId,
        session.pending,
        options.userAgent?.slice(0, 300) ?? null,
        options.address?.slice(0, 100) ?? null,
      ],
    );
    // Everything older than the newest `max` (replicas signing in at once may each leave one extra
    // for a moment; the next sign-in removes it). The OFFSET walks the seq index: at most `max` entries.
    // The operator's sessions (user_id null) and each person's are bounded apart.
    await tx.query(
      `DELETE FROM portal_sessions WHERE user_id IS NOT DISTINCT FROM $2 AND seq <= (SELECT seq FROM portal_sessions
        WHERE user_id IS NOT DISTINCT FROM $2 ORDER BY seq DESC OFFSET $1 LIMIT 1)`,
      [max, userId],
    );
    return session;
  });
}

/** The live session with this id; null when unknown, malformed or expired (an expired row is left to pruning). */
export async function getPortalSession(db: SqlRunner, id: string, nowMs: number): Promise<PortalSession | null> {
  if (!SESSION_ID.test(id)) return null;
  const rows = await db.query<SessionRow>(
    `SELECT user_id, csrf_token, flash, expires_at, pending, last_seen_at, created_at FROM portal_sessions
      WHERE id_hash = $1 AND expires_at > $2`,
    [idHash(id), nowMs],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id,
    csrfToken: row.csrf_token,
    expiresAt: toNumber(row.expires_at),
    flash: row.flash,
    userId: row.user_id,
    pending: row.pending,
    lastSeenAt: toNumber(row.last_seen_at ?? row.created_at),
  };
}

/** Sets the one-shot notice of a live session; false when there is none. */
export async function setPortalSessionFlash(db: SqlRunner, id: string, flash: string, nowMs: number): Promise<boolean> {
  if (!SESSION_ID.test(id)) return false;
  const rows = await db.query(
    'UPDATE portal_sessions SET flash = $2 WHERE id_hash = $1 AND expires_at > $3 RETURNING seq',
    [idHash(id), flash, nowMs],
  );
  return rows.length > 0;
}

/**
 * Clears the notice and returns what it was, in one statement: of two requests taking it at once
 * (on two replicas), one gets it and the other null, since the row lock makes the second see it cleared.
 */
export async function takePortalSessionFlash(db: SqlRunner, id: string): Promise<string | null> {
  if (!SESSION_ID.test(id)) return null;
  const rows = await db.query<{ flash: string }>(
    `WITH old AS (SELECT id_hash, flash FROM portal_sessions WHERE id_hash = $1 AND flash IS NOT NULL FOR UPDATE)
     UPDATE portal_sessions s SET flash = NULL FROM old WHERE s.id_hash = old.id_hash RETURNING old.flash`,
    [idHash(id)],
  );
  return rows[0]?.flash ?? null;
}

/** Sign-out; false when there was no such session. */
export async function deletePortalSession(db: SqlRunner, id: string): Promise<boolean> {
  if (!SESSION_ID.test(id)) return false;
  const rows = await db.query('DELETE FROM portal_sessions WHERE id_hash = $1 RETURNING seq', [idHash(id)]);
  return rows.length > 0;
}

/** Every session of the person but `exceptId`'s; returns how many ended. */
export async function deleteUserSessions(db: SqlRunner, userId: string, exceptId?: string): Promise<number> {
  const keep = exceptId !== undefined && SESSION_ID.test(exceptId) ? idHash(exceptId) : '';
  const rows = await db.query('DELETE FROM portal_sessions WHERE user_id = $1 AND id_hash <> $2 RETURNING seq', [
    userId,
    keep,
  ]);
  return rows.length;
}

/** Removes at most `limit` expired sessions, earliest expiry first; returns how many. */
export async function prunePortalSessions(
  db: SqlRunner,
  nowMs: number,
  limit = DEFAULT_SESSION_PRUNE_LIMIT,
): Promise<number> {
  requireInteger('limit', limit, 1, MAX_SESSION_PRUNE_LIMIT);
  return pruneExpired(db, nowMs, limit);
}

async function pruneExpired(db: Queryable, nowMs: number, limit: number): Promise<number> {
  const rows = await db.query(
    `DELETE FROM portal_sessions WHERE id_hash IN
       (SELECT id_hash FROM portal_sessions WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2) RETURNING seq`,
    [nowMs, limit],
  );
  return rows.length;
}

export function portalSessionStore({ db, clock }: RepositoryContext): PortalSessionStore {
  return {
    createPortalSession: (ttlMs, userId, options) =>
      createPortalSession(db, ttlMs, clock.now(), userId ?? null, options),
    listUserSessions: (userId) => listUserSessions(db, userId, clock.now()),
    deleteUserSession: (userId, seq) => deleteUserSession(db, userId, seq),
    touchPortalSession: (id, address) => touchPortalSession(db, id, address, clock.now()),
    deleteUserSessions: (userId, exceptId) => deleteUserSessions(db, userId, exceptId),
    getPortalSession: (id) => getPortalSession(db, id, clock.now()),
    setPortalSessionFlash: (id, flash) => setPortalSessionFlash(db, id, flash, clock.now()),
    takePortalSessionFlash: (id) => takePortalSessionFlash(db, id),
    deletePortalSession: (id) => deletePortalSession(db, id),
    prunePortalSessions: (limit) => prunePortalSessions(db, clock.now(), limit),
  };
}
