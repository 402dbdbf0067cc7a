import type { Plan } from '#common';
import { newAccountId } from './ids.ts';
import { type Queryable, type SqlRunner, toNumber } from './sql-runner.ts';
import type { Account, AccountStore } from './repositories/accounts.ts';
import type { RepositoryContext } from './repository-context.ts';

interface AccountRow {
  id: string;
  name: string;
  plan: Plan;
  enabled: boolean;
  created_at: unknown;
}

const COLUMNS = 'id, name, plan, enabled, created_at';

function toAccount(row: AccountRow): Account {
  return { id: row.id, name: row.name, plan: row.plan, enabled: row.enabled, createdAt: toNumber(row.created_at) };
}

export async function createAccount(
  db: Queryable,
  input: { name: string; plan: Plan },
  nowMs: number,
): Promise<Account> {
  const rows = await db.query<AccountRow>(
    `INSERT INTO accounts (id, name, plan, enabled, created_at) VALUES ($1, $2, $3, true, $4) RETURNING ${COLUMNS}`,
    [newAccountId(), input.name, input.plan, nowMs],
  );
  return toAccount(rows[0]!);
}

export async function getAccount(db: SqlRunner, id: string): Promise<Account | null> {
  const rows = await db.query<AccountRow>(`SELECT ${COLUMNS} FROM accounts WHERE id = $1`, [id]);
  return rows[0] ? toAccount(rows[0]) : null;
}

export async function listAccounts(db: SqlRunner): Promise<Account[]> {
  const rows = await db.query<AccountRow>(`SELECT ${COLUMNS} FROM accounts ORDER BY created_at, id`);
  return rows.map(toAccount);
}

/** Null when there is no such account. */
export async function updateAccount(
  db: SqlRunner,
  id: string,
  change: { plan?: Plan; enabled?: boolean },
): Promise<Account | null> {
  const rows = await db.query<AccountRow>(
    `UPDATE accounts SET plan = coalesce($2, plan), enabled = coalesce($3, enabled) WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, change.plan ?? null, change.enabled ?? null],
  );
  return rows[0] ? toAccount(rows[0]) : null;
}

export function accountStore({ db, clock, changing }: RepositoryContext): AccountStore {
  return {
    createAccount: (input) => createAccount(db, input, clock.now()),
    getAccount: (id) => getAccount(db, id),
    listAccounts: () => listAccounts(db),
    updateAccount: (id, change) => changing(updateAccount(db, id, change), 'account', (a) => a?.id ?? null),
  };
}
