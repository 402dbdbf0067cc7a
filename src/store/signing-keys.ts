import { isUniqueViolation, StoreError } from './errors.ts';
import { type SqlRunner, toNullableNumber, toNumber } from './sql-runner.ts';
import type { SigningKey, SigningKeyStatus } from './types.ts';

interface SigningKeyRow {
  kid: string;
  alg: string;
  status: SigningKeyStatus;
  public_jwk: Record<string, unknown>;
  private_key: string;
  created_at: unknown;
  activated_at: unknown;
  retired_at: unknown;
}

export type SigningKeyChange = Pick<SigningKey, 'kid' | 'status' | 'activatedAt' | 'retiredAt'>;

const COLUMNS = 'kid, alg, status, public_jwk, private_key, created_at, activated_at, retired_at';

function toSigningKey(row: SigningKeyRow): SigningKey {
  return {
    kid: row.kid,
    alg: row.alg,
    status: row.status,
    publicJwk: row.public_jwk,
    privateKey: row.private_key,
    createdAt: toNumber(row.created_at),
    activatedAt: toNullableNumber(row.activated_at),
    retiredAt: toNullableNumber(row.retired_at),
  };
}

export async function listSigningKeys(db: SqlRunner): Promise<SigningKey[]> {
  const rows = await db.query<SigningKeyRow>(`SELECT ${COLUMNS} FROM signing_keys ORDER BY created_at, kid`);
  return rows.map(toSigningKey);
}

/**
 * Throws StoreError `active_signing_key_exists` or `next_signing_key_exists` when inserting a
 * second active or next key (replicas starting or rotating together).
 */
export async function insertSigningKey(db: SqlRunner, key: SigningKey): Promise<void> {
  try {
    await db.query(
      `INSERT INTO signing_keys (${COLUMNS}) VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8)`,
      [key.kid, key.alg, key.status, JSON.stringify(key.publicJwk), key.privateKey, key.createdAt, key.activatedAt, key.retiredAt],
    );
  } catch (error) {
    if (isUniqueViolation(error, 'signing_keys_one_active')) throw new StoreError('active_signing_key_exists', 'another active signing key exists');
    if (isUniqueViolation(error, 'signing_keys_one_next')) throw new StoreError('next_signing_key_exists', 'another next signing key exists');
    throw error;
  }
}

/**
 * All changes or none: an unknown kid rolls the whole rotation back (StoreError
 * `signing_key_not_found`). Demotions run before the promotion to `active`, so the
 * one-active-key index holds at every statement whatever order the caller lists them in.
 */
export function updateSigningKeys(db: SqlRunner, changes: SigningKeyChange[]): Promise<void> {
  const ordered = [...changes].sort((a, b) => Number(a.status === 'active') - Number(b.status === 'active'));
  return db.transaction(async (tx) => {
    for (const change of ordered) {
      const rows = await tx.query(
        'UPDATE signing_keys SET status = $2, activated_at = $3, retired_at = $4 WHERE kid = $1 RETURNING kid',
        [change.kid, change.status, change.activatedAt, change.retiredAt],
      );
      if (rows.length === 0) throw new StoreError('signing_key_not_found', 'signing key not found');
    }
  });
}

export async function deleteSigningKey(db: SqlRunner, kid: string): Promise<void> {
  await db.query('DELETE FROM signing_keys WHERE kid = $1', [kid]);
}
