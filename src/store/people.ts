import { StoreError } from './errors.ts';
import { type SqlRunner, toNumber } from './sql-runner.ts';
import type { AccountPerson, Membership, PeopleStore, Role, User } from './repositories/people.ts';
import type { RepositoryContext } from './repository-context.ts';

/** A person as the users table holds them (invitations.ts reads and creates people too). */
export interface UserRow {
  id: string;
  email: string;
  password_hash: string | null;
  created_at: unknown;
}

export const USER_COLUMNS = 'id, email, password_hash, created_at';

export function toUser(row: UserRow): User {
  return { id: row.id, email: row.email, passwordHash: row.password_hash, createdAt: toNumber(row.created_at) };
}

export async function getUser(db: SqlRunner, id: string): Promise<User | null> {
  const rows = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
  return rows[0] ? toUser(rows[0]) : null;
}

/** `email` as stored: trimmed and lowercased by the caller. */
export async function findUserByEmail(db: SqlRunner, email: string): Promise<User | null> {
  const rows = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email = $1`, [email]);
  return rows[0] ? toUser(rows[0]) : null;
}

export async function setUserPassword(db: SqlRunner, id: string, passwordHash: string): Promise<boolean> {
  const rows = await db.query('UPDATE users SET password_hash = $2 WHERE id = $1 RETURNING id', [id, passwordHash]);
  return rows.length > 0;
}

export async function listMemberships(db: SqlRunner, userId: string): Promise<Membership[]> {
  const rows = await db.query<{ account_id: string; role: Role }>(
    'SELECT m.account_id, m.role FROM memberships m JOIN accounts a ON a.id = m.account_id WHERE m.user_id = $1 ORDER BY a.created_at, a.id',
    [userId],
  );
  return rows.map((row) => ({ accountId: row.account_id, role: row.role }));
}

export async function listAccountPeople(db: SqlRunner, accountId: string): Promise<AccountPerson[]> {
  const rows = await db.query<{ id: string; email: string; role: Role; created_at: unknown }>(
    `SELECT u.id, u.email, m.role, m.created_at FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.account_id = $1 ORDER BY m.created_at, u.email`,
    [accountId],
  );
  return rows.map((row) => ({ userId: row.id, email: row.email, role: row.role, since: toNumber(row.created_at) }));
}

/**
 * Changes a member's role (`role`) or removes them (null). Refused with StoreError `last_owner`
 * when the account would be left without an owner; the account's memberships are locked while
 * counting, so two owners demoting each other at once cannot both succeed.
 */
export async function changeMembership(
  db: SqlRunner,
  accountId: string,
  userId: string,
  role: Role | null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<{ user_id: string; role: Role }>(
      'SELECT user_id, role FROM memberships WHERE account_id = $1 FOR UPDATE',
      [accountId],
    );
    if (!rows.some((row) => row.user_id === userId)) return false;
    const owners = rows.filter((row) => row.role === 'owner' && row.user_id !== userId).length;
    if (owners === 0 && role !== 'owner')
      throw new StoreError('last_owner', 'an account keeps at least one owner: make another person owner first');
    if (role === null)
      await tx.query('DELETE FROM memberships WHERE account_id = $1 AND user_id = $2', [accountId, userId]);
    else
      await tx.query('UPDATE memberships SET role = $3 WHERE account_id = $1 AND user_id = $2', [
        accountId,
        userId,
        role,
      ]);
    return true;
  });
}

export function peopleStore({ db }: RepositoryContext): PeopleStore {
  return {
    getUser: (id) => getUser(db, id),
    findUserByEmail: (email) => findUserByEmail(db, email),
    setUserPassword: (id, hash) => setUserPassword(db, id, hash),
    listMemberships: (userId) => listMemberships(db, userId),
    listAccountPeople: (accountId) => listAccountPeople(db, accountId),
    changeMembership: (accountId, userId, role) => changeMembership(db, accountId, userId, role),
  };
}
