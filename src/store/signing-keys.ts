import { isUniqueViolation, StoreError } from './errors.ts';
import { type SqlRunner, toNullableNumber, toNumber } from './sql-runner.ts';
import type { SigningKey, SigningKeyChange, SigningKeyStatus, SigningKeyStore } from './repositories/signing-keys.ts';
import type { RepositoryContext } from './repository-context.ts';

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
    await db.query(`INSERT INTO signing_keys (${COLUMNS}) VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8)`, [
      key.kid,
      key.alg,
      key.status,
      JSON.stringify(key.publicJwk),
      key.privateKey,
      key.createdAt,
      key.activatedAt,
      key.retiredAt,
    ]);
  } catch (error) {
    if (isUniqueViolation(error, 'signing_keys_one_active'))
      throw new StoreError('active_signing_key_exists', 'another active signing key exists');
    if (isUniqueViolation(error, 'signing_keys_one_next'))
      throw new StoreError('next_signing_key_exists', 'another next signing key exists');
    throw error;
  }
}

/**
 * All changes or none: an unknown kid rolls the whole rotation back (StoreError
 * `signing_key_not_found`), and so does a key whose status is no longer the change's `from`
 * (`signing_keys_changed`: rotations read the keys, then write, and another may land between).
 * Demotions run before the promotion to `active`, so the one-active-key index holds at every
 * statement whatever order the caller lists them in.
 */
export async function updateSigningKeys(db: SqlRunner, changes: SigningKeyChange[]): Promise<void> {
  const ordered = [...changes].sort((a, b) => Number(a.status === 'active') - Number(b.status === 'active'));
  try {
    await db.transaction(async (tx) => {
      for (const change of ordered) {
        const rows = await tx.query(
          'UPDATE signing_keys SET status = $2, activated_at = $3, retired_at = $4 WHERE kid = $1 AND ($5::text IS NULL OR status = $5) RETURNING kid',
          [change.kid, change.status, change.activatedAt, change.retiredAt, change.from ?? null],
        );
        if (rows.length > 0) continue;
        const exists = await tx.query('SELECT 1 FROM signing_keys WHERE kid = $1', [change.kid]);
        if (exists.length === 0) throw new StoreError('signing_key_not_found', 'signing key not found');
        throw keysChanged();
      }
    });
  } catch (error) {
    // A promotion beside an active key the rotation did not read: the same race, seen by the index.
    if (isUniqueViolation(error, 'signing_keys_one_active')) throw keysChanged();
    throw error;
  }
}

function keysChanged(): StoreError {
  return new StoreError(
    'signing_keys_changed',
    'the signing keys changed since they were read (a concurrent rotation)',
  );
}

export async function deleteSigningKey(db: SqlRunner, kid: string): Promise<void> {
  await db.query('DELETE FROM signing_keys WHERE kid = $1', [kid]);
}

/** Every change announces `signing_keys` (no id: the replicas read all the keys again). */
export function signingKeyStore({ db, changing }: RepositoryContext): SigningKeyStore {
  return {
    listSigningKeys: () => listSigningKeys(db),
    insertSigningKey: (key) => changing(insertSigningKey(db, key), 'signing_keys', () => null),
    updateSigningKeys: (changes) => changing(updateSigningKeys(db, changes), 'signing_keys', () => null),
    deleteSigningKey: (kid) => changing(deleteSigningKey(db, kid), 'signing_keys', () => null),
  };
}
