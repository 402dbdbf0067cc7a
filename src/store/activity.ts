import type { SqlRunner } from './sql-runner.ts';
import { toNumber } from './sql-runner.ts';
import type { ActivityEntry, ActivityStore, NewActivity } from './repositories/activity.ts';
import type { RepositoryContext } from './repository-context.ts';

interface ActivityRow {
  at: unknown;
  actor: string;
  action: string;
  target: string;
  address: string | null;
}

export async function addActivity(db: SqlRunner, entry: NewActivity, nowMs: number): Promise<void> {
  await db.query(
    'INSERT INTO account_activity (account_id, at, actor, action, target, address) VALUES ($1, $2, $3, $4, $5, $6)',
    [entry.accountId, nowMs, entry.actor, entry.action, entry.target, entry.address],
  );
}

/** The account's latest `limit` entries, newest first (by insertion order: clocks may tie). */
export async function listActivity(db: SqlRunner, accountId: string, limit: number): Promise<ActivityEntry[]> {
  const rows = await db.query<ActivityRow>(
    'SELECT at, actor, action, target, address FROM account_activity WHERE account_id = $1 ORDER BY seq DESC LIMIT $2',
    [accountId, limit],
  );
  return rows.map((row) => ({ ...row, at: toNumber(row.at) }));
}

export function activityStore({ db, clock }: RepositoryContext): ActivityStore {
  return {
    addActivity: (entry) => addActivity(db, entry, clock.now()),
    listActivity: (accountId, limit) => listActivity(db, accountId, limit),
  };
}
