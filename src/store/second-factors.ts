import { randomBytes } from 'node:crypto';
import { StoreError } from './errors.ts';
import type { RepositoryContext } from './repository-context.ts';
import type { SecondFactor, SecondFactorStore, TotpFactor } from './repositories/second-factors.ts';
import { type Queryable, type SqlRunner, toNullableNumber, toNumber } from './sql-runner.ts';

interface FactorRow {
  id: string;
  kind: 'totp' | 'passkey';
  label: string;
  created_at: unknown;
  last_used_at: unknown;
}

interface TotpRow {
  id: string;
  totp_secret: string;
  last_step: unknown;
}

const toTotp = (row: TotpRow): TotpFactor => ({
  id: row.id,
  secret: row.totp_secret,
  lastStep: toNullableNumber(row.last_step),
});

function newFactorId(): string {
  return 'fac_' + randomBytes(12).toString('base64url');
}

async function getPendingTotp(db: SqlRunner, userId: string, sinceMs: number): Promise<TotpFactor | null> {
  const rows = await db.query<TotpRow>(
    `SELECT id, totp_secret, last_step FROM user_factors
      WHERE user_id = $1 AND kind = 'totp' AND confirmed_at IS NULL AND created_at > $2 ORDER BY created_at DESC LIMIT 1`,
    [userId, sinceMs],
  );
  return rows[0] ? toTotp(rows[0]) : null;
}

async function addPendingTotp(db: SqlRunner, userId: string, secret: string, nowMs: number): Promise<string> {
  const id = newFactorId();
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM user_factors WHERE user_id = $1 AND confirmed_at IS NULL', [userId]);
    await tx.query(
      `INSERT INTO user_factors (id, user_id, kind, label, totp_secret, created_at) VALUES ($1, $2, 'totp', 'Authenticator app', $3, $4)`,
      [id, userId, secret, nowMs],
    );
  });
  return id;
}

export async function insertRecoveryCodes(tx: Queryable, userId: string, hashes: readonly string[], nowMs: number) {
  await tx.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
  for (const hash of hashes)
    await tx.query('INSERT INTO recovery_codes (user_id, code_hash, created_at) VALUES ($1, $2, $3)', [
      userId,
      hash,
      nowMs,
    ]);
}

async function confirmTotp(
  db: SqlRunner,
  args: { userId: string; factorId: string; label: string; step: number; hashes: readonly string[] | undefined },
  nowMs: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.query(
      `UPDATE user_factors SET confirmed_at = $3, label = $4, last_step = $5, last_used_at = $3
        WHERE id = $1 AND user_id = $2 AND confirmed_at IS NULL RETURNING id`,
      [args.factorId, args.userId, nowMs, args.label, args.step],
    );
    if (rows.length === 0) return false;
    if (args.hashes) await insertRecoveryCodes(tx, args.userId, args.hashes, nowMs);
    return true;
  });
}

async function listFactors(db: SqlRunner, userId: string): Promise<SecondFactor[]> {
  const rows = await db.query<FactorRow>(
    `SELECT id, kind, label, created_at, last_used_at FROM user_factors
      WHERE user_id = $1 AND confirmed_at IS NOT NULL ORDER BY created_at, id`,
    [userId],
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    label: row.label,
    createdAt: toNumber(row.created_at),
    lastUsedAt: toNullableNumber(row.last_used_at),
  }));
}

async function listTotpFactors(db: SqlRunner, userId: string): Promise<TotpFactor[]> {
  const rows = await db.query<TotpRow>(
    `SELECT id, totp_secret, last_step FROM user_factors
      WHERE user_id = $1 AND kind = 'totp' AND confirmed_at IS NOT NULL ORDER BY created_at, id`,
    [userId],
  );
  return rows.map(toTotp);
}

/** One statement: of two replicas accepting the same step at once, the row lock lets one through. */
async function acceptTotpStep(db: SqlRunner, factorId: string, step: number, nowMs: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE user_factors SET last_step = $2, last_used_at = $3
      WHERE id = $1 AND confirmed_at IS NOT NULL AND (last_step IS NULL OR last_step < $2) RETURNING id`,
    [factorId, step, nowMs],
  );
  return rows.length > 0;
}

async function useRecoveryCode(db: SqlRunner, userId: string, hash: string, nowMs: number): Promise<boolean> {
  const rows = await db.query(
    'UPDATE recovery_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING user_id',
    [userId, hash, nowMs],
  );
  return rows.length > 0;
}

async function countRecoveryCodes(db: SqlRunner, userId: string): Promise<number> {
  const rows = await db.query<{ n: unknown }>(
    'SELECT count(*) AS n FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL',
    [userId],
  );
  return toNumber(rows[0]?.n ?? 0);
}

/**
 * The person's factors are locked while counting, so two removals at once cannot both take "not
 * the last one"; an account turning the rule on meanwhile is the owner's to see in the list.
 */
async function removeFactor(db: SqlRunner, userId: string, factorId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx.query<{ id: string }>(
      'SELECT id FROM user_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL FOR UPDATE',
      [userId],
    );
    if (!rows.some((row) => row.id === factorId)) return false;
    if (rows.length === 1) {
      if (await requiredFor(tx, userId))
        throw new StoreError(
          'last_factor',
          'an account of yours requires two-factor authentication: add another factor before removing this one',
        );
      await tx.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
    }
    await tx.query('DELETE FROM user_factors WHERE id = $1', [factorId]);
    return true;
  });
}

async function requiredFor(db: Queryable, userId: string): Promise<boolean> {
  const rows = await db.query(
    'SELECT 1 FROM memberships m JOIN accounts a ON a.id = m.account_id WHERE m.user_id = $1 AND a.require_2fa LIMIT 1',
    [userId],
  );
  return rows.length > 0;
}

async function resetFactors(db: SqlRunner, userId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx.query(
      'DELETE FROM user_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL RETURNING id',
      [userId],
    );
    await tx.query('DELETE FROM user_factors WHERE user_id = $1', [userId]);
    await tx.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
    return rows.length;
  });
}

async function setAccountRequire2fa(db: SqlRunner, accountId: string, required: boolean): Promise<boolean | null> {
  const rows = await db.query<{ require_2fa: boolean }>(
    'UPDATE accounts SET require_2fa = $2 WHERE id = $1 RETURNING require_2fa',
    [accountId, required],
  );
  return rows[0]?.require_2fa ?? null;
}

async function getAccountRequire2fa(db: SqlRunner, accountId: string): Promise<boolean | null> {
  const rows = await db.query<{ require_2fa: boolean }>('SELECT require_2fa FROM accounts WHERE id = $1', [accountId]);
  return rows[0]?.require_2fa ?? null;
}

async function secondFactorState(db: SqlRunner, userId: string) {
  const rows = await db.query<{ factors: unknown; required: boolean }>(
    `SELECT (SELECT count(*) FROM user_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL) AS factors,
            EXISTS (SELECT 1 FROM memberships m JOIN accounts a ON a.id = m.account_id
                     WHERE m.user_id = $1 AND a.require_2fa) AS required`,
    [userId],
  );
  return { factors: toNumber(rows[0]?.factors ?? 0), required: rows[0]?.required === true };
}

export function secondFactorStore({ db, clock }: RepositoryContext): SecondFactorStore {
  return {
    getPendingTotp: (userId, sinceMs) => getPendingTotp(db, userId, sinceMs),
    addPendingTotp: (userId, secret) => addPendingTotp(db, userId, secret, clock.now()),
    confirmTotp: (userId, factorId, label, step, hashes) =>
      confirmTotp(db, { userId, factorId, label, step, hashes }, clock.now()),
    listFactors: (userId) => listFactors(db, userId),
    listTotpFactors: (userId) => listTotpFactors(db, userId),
    acceptTotpStep: (factorId, step) => acceptTotpStep(db, factorId, step, clock.now()),
    useRecoveryCode: (userId, hash) => useRecoveryCode(db, userId, hash, clock.now()),
    replaceRecoveryCodes: (userId, hashes) =>
      db.transaction((tx) => insertRecoveryCodes(tx, userId, hashes, clock.now())),
    countRecoveryCodes: (userId) => countRecoveryCodes(db, userId),
    removeFactor: (userId, factorId) => removeFactor(db, userId, factorId),
    resetFactors: (userId) => resetFactors(db, userId),
    setAccountRequire2fa: (accountId, required) => setAccountRequire2fa(db, accountId, required),
    getAccountRequire2fa: (accountId) => getAccountRequire2fa(db, accountId),
    secondFactorState: (userId) => secondFactorState(db, userId),
  };
}
