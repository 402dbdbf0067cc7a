import { createHash, randomBytes } from 'node:crypto';
import { StoreError } from './errors.ts';
import { newUserId } from './ids.ts';
import { type Queryable, type SqlRunner, toNumber } from './sql-runner.ts';
import type { Invitation, InvitationState } from './repositories/invitations.ts';
import type { AccountPerson, Membership, Role, User } from './repositories/people.ts';

interface UserRow {
  id: string;
  email: string;
  password_hash: string | null;
  created_at: unknown;
}

const USER_COLUMNS = 'id, email, password_hash, created_at';

function toUser(row: UserRow): User {
  return { id: row.id, email: row.email, passwordHash: row.password_hash, createdAt: toNumber(row.created_at) };
}

/** What an invitation link carries: 256 random bits; only its digest is stored. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
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

/** A new single-use link into the account; the token is returned here only. */
export async function createInvitation(
  db: SqlRunner,
  input: { accountId: string; email: string; role: Role; ttlMs: number },
  nowMs: number,
): Promise<{ token: string; invitation: Invitation }> {
  const token = randomBytes(32).toString('base64url');
  const invitation: Invitation = {
    accountId: input.accountId,
    email: input.email,
    role: input.role,
    createdAt: nowMs,
    expiresAt: nowMs + input.ttlMs,
  };
  await db.query(
    'INSERT INTO invitations (token_hash, account_id, email, role, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [tokenHash(token), invitation.accountId, invitation.email, invitation.role, nowMs, invitation.expiresAt],
  );
  return { token, invitation };
}

interface InvitationRow {
  account_id: string;
  email: string;
  role: Role;
  created_at: unknown;
  expires_at: unknown;
  used_at: unknown;
}

async function readInvitation(db: Queryable, token: string, lock: boolean): Promise<InvitationRow | undefined> {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  const rows = await db.query<InvitationRow>(
    `SELECT account_id, email, role, created_at, expires_at, used_at FROM invitations WHERE token_hash = $1${lock ? ' FOR UPDATE' : ''}`,
    [tokenHash(token)],
  );
  return rows[0];
}

function stateOf(row: InvitationRow | undefined, nowMs: number): InvitationState {
  if (!row) return { state: 'unknown' };
  if (row.used_at !== null) return { state: 'used' };
  if (toNumber(row.expires_at) <= nowMs) return { state: 'expired' };
  const invitation: Invitation = {
    accountId: row.account_id,
    email: row.email,
    role: row.role,
    createdAt: toNumber(row.created_at),
    expiresAt: toNumber(row.expires_at),
  };
  return { state: 'valid', invitation };
}

/** Where an invitation stands, and for a valid one whether its person already has a password. */
export async function peekInvitation(
  db: SqlRunner,
  token: string,
  nowMs: number,
): Promise<InvitationState & { user?: User | null }> {
  const state = stateOf(await readInvitation(db, token, false), nowMs);
  if (state.state !== 'valid') return state;
  return { ...state, user: await findUserByEmail(db, state.invitation.email) };
}

/**
 * Uses the invitation, once: of two acceptances at once only one finds it unused (row lock). The
 * person is created if new, gets `passwordHash` when given (a new person, or one without a
 * password yet), and joins the account with the invitation's role (a member keeps the new role).
 */
export async function acceptInvitation(
  db: SqlRunner,
  token: string,
  passwordHash: string | null,
  nowMs: number,
): Promise<InvitationState & { user?: User }> {
  return db.transaction(async (tx) => {
    const state = stateOf(await readInvitation(tx, token, true), nowMs);
    if (state.state !== 'valid') return state;
    const { invitation } = state;
    await tx.query('UPDATE invitations SET used_at = $2 WHERE token_hash = $1', [tokenHash(token), nowMs]);
    await tx.query('INSERT INTO users (id, email, created_at) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING', [
      newUserId(),
      invitation.email,
      nowMs,
    ]);
    if (passwordHash !== null)
      await tx.query('UPDATE users SET password_hash = $2 WHERE email = $1 AND password_hash IS NULL', [
        invitation.email,
        passwordHash,
      ]);
    const rows = await tx.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email = $1`, [invitation.email]);
    const user = toUser(rows[0]!);
    await tx.query(
      `INSERT INTO memberships (account_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
      [invitation.accountId, user.id, invitation.role, nowMs],
    );
    return { ...state, user };
  });
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
