import { REVOCATION_CHANNEL } from './notify-channel.ts';
import { type SqlRunner, toNullableNumber, toNumber } from './sql-runner.ts';
import type { NewRevocation, Revocation, RevocationKind, RevocationStore } from './repositories/revocations.ts';
import type { RepositoryContext } from './repository-context.ts';

interface RevocationRow {
  seq: unknown;
  kind: RevocationKind;
  value: string;
  issued_before: unknown;
  generation: unknown;
  expires_at: unknown;
  created_at: unknown;
}

const COLUMNS = 'seq, kind, value, issued_before, generation, expires_at, created_at';
/** One feed page; a caller resumes from the last seq it got. */
export const DEFAULT_FEED_LIMIT = 1000;
const MAX_FEED_LIMIT = 10_000;

/** Misuse by a host (a cursor taken unchecked from a query string) fails loudly, before SQL. */
function requireInteger(name: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new TypeError(`${name} must be an integer in ${min}..${max}`);
  }
}

function toRevocation(row: RevocationRow): Revocation {
  return {
    seq: toNumber(row.seq),
    kind: row.kind,
    value: row.value,
    issuedBefore: toNullableNumber(row.issued_before),
    generation: toNullableNumber(row.generation),
    expiresAt: toNumber(row.expires_at),
    createdAt: toNumber(row.created_at),
  };
}

/**
 * Writers are serialised by a table lock (readers are not blocked) so that seq order is
 * commit order: otherwise a reader could see seq 8 before seq 7 commits, move its cursor
 * past 7 and never learn of it. Revocations are rare, so the lock costs nothing.
 * The NOTIFY is delivered at COMMIT, when the entry is visible.
 */
export function addRevocation(db: SqlRunner, entry: NewRevocation, nowMs: number): Promise<Revocation> {
  return db.transaction(async (tx) => {
    await tx.query('LOCK TABLE revocations IN SHARE ROW EXCLUSIVE MODE');
    const rows = await tx.query<RevocationRow>(
      `INSERT INTO revocations (kind, value, issued_before, generation, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [entry.kind, entry.value, entry.issuedBefore, entry.generation ?? null, entry.expiresAt, nowMs],
    );
    await tx.query('SELECT pg_notify($1, current_schema())', [REVOCATION_CHANNEL]);
    return toRevocation(rows[0]!);
  });
}

export async function revocationsSince(
  db: SqlRunner,
  cursor: number,
  nowSeconds: number,
  limit = DEFAULT_FEED_LIMIT,
): Promise<Revocation[]> {
  requireInteger('cursor', cursor, 0);
  requireInteger('nowSeconds', nowSeconds, 0);
  requireInteger('limit', limit, 1, MAX_FEED_LIMIT);
  const rows = await db.query<RevocationRow>(
    `SELECT ${COLUMNS} FROM revocations WHERE seq > $1 AND expires_at > $2 ORDER BY seq LIMIT $3`,
    [cursor, nowSeconds, limit],
  );
  return rows.map(toRevocation);
}

export async function pruneRevocations(db: SqlRunner, nowSeconds: number): Promise<number> {
  requireInteger('nowSeconds', nowSeconds, 0);
  const rows = await db.query('DELETE FROM revocations WHERE expires_at <= $1 RETURNING seq', [nowSeconds]);
  return rows.length;
}

/** An added revocation wakes the feed's long-polls here at once (and on other replicas by NOTIFY). */
export function revocationStore({ db, clock, signal }: RepositoryContext): RevocationStore {
  return {
    async addRevocation(entry) {
      const added = await addRevocation(db, entry, clock.now());
      signal.committed();
      return added;
    },
    revocationsSince: (cursor, nowSeconds, limit) => revocationsSince(db, cursor, nowSeconds, limit),
    pruneRevocations: (nowSeconds) => pruneRevocations(db, nowSeconds),
    onRevocation: (listener) => signal.subscribe(listener),
  };
}
