import { createHash, randomBytes } from 'node:crypto';
import { newUserId } from './ids.ts';
import { findUserByEmail, toUser, USER_COLUMNS, type UserRow } from './people.ts';
import type { Invitation, InvitationState, InvitationStore } from './repositories/invitations.ts';
import type { Role, User } from './repositories/people.ts';
import type { RepositoryContext } from './repository-context.ts';
import { type Queryable, type SqlRunner, toNumber } from './sql-runner.ts';

/** What an invitation link carries: 256 random bits; only its digest is stored. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
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

export function invitationStore({ db, clock }: RepositoryContext): InvitationStore {
  return {
    createInvitation: (input) => createInvitation(db, input, clock.now()),
    peekInvitation: (token) => peekInvitation(db, token, clock.now()),
    acceptInvitation: (token, hash) => acceptInvitation(db, token, hash, clock.now()),
  };
}
