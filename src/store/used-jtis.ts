import type { UsedJtiStore } from './repositories/used-jtis.ts';
import type { SqlRunner } from './sql-runner.ts';
import type { RepositoryContext } from './repository-context.ts';

/**
 * Records a JWT id as used within `scope` until `expiresAtSec`. True the first time; false when
 * the id is already recorded there (a replay), whichever replica recorded it.
 */
export async function claimJti(db: SqlRunner, scope: string, jti: string, expiresAtSec: number): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO used_jtis (scope, jti, expires_at) VALUES ($1, $2, $3)
     ON CONFLICT (scope, jti) DO NOTHING RETURNING jti`,
    [scope, jti, expiresAtSec],
  );
  return rows.length === 1;
}

/** Forgets ids whose JWT has expired (it can no longer be presented); returns how many. */
export async function pruneJtis(db: SqlRunner, nowSeconds: number): Promise<number> {
  const rows = await db.query('DELETE FROM used_jtis WHERE expires_at <= $1 RETURNING jti', [nowSeconds]);
  return rows.length;
}

export function usedJtiStore({ db }: RepositoryContext): UsedJtiStore {
  return {
    claimJti: (scope, jti, expiresAtSec) => claimJti(db, scope, jti, expiresAtSec),
    pruneJtis: (nowSeconds) => pruneJtis(db, nowSeconds),
  };
}
