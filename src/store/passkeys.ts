import { randomBytes } from 'node:crypto';
import { isUniqueViolation, StoreError } from './errors.ts';
import type { RepositoryContext } from './repository-context.ts';
import type { NewChallenge, NewPasskey, Passkey, PasskeyStore } from './repositories/passkeys.ts';
import { insertRecoveryCodes } from './second-factors.ts';
import { type SqlRunner, toNumber } from './sql-runner.ts';

interface PasskeyRow {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  sign_count: unknown;
  transports: string | null;
}

const PASSKEY_COLUMNS = 'id, user_id, credential_id, public_key, sign_count, transports';

const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  userId: row.user_id,
  credentialId: row.credential_id,
  publicKey: row.public_key,
  signCount: toNumber(row.sign_count),
  transports: row.transports ? row.transports.split(',') : [],
});

async function addPasskey(
  db: SqlRunner,
  args: { userId: string; passkey: NewPasskey; hashes: readonly string[] | undefined },
  nowMs: number,
): Promise<string> {
  const id = 'fac_' + randomBytes(12).toString('base64url');
  const { passkey } = args;
  try {
    await db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO user_factors (id, user_id, kind, label, credential_id, public_key, sign_count, transports, created_at, confirmed_at)
         VALUES ($1, $2, 'passkey', $3, $4, $5, $6, $7, $8, $8)`,
        [
          id,
          args.userId,
          passkey.label,
          passkey.credentialId,
          passkey.publicKey,
          passkey.signCount,
          passkey.transports.join(','),
          nowMs,
        ],
      );
      if (args.hashes) await insertRecoveryCodes(tx, args.userId, args.hashes, nowMs);
    });
  } catch (error) {
    if (!isUniqueViolation(error, 'user_factors_credential_idx')) throw error;
    throw new StoreError('passkey_registered', 'this passkey is added already');
  }
  return id;
}

async function listPasskeys(db: SqlRunner, userId: string): Promise<Passkey[]> {
  const rows = await db.query<PasskeyRow>(
    `SELECT ${PASSKEY_COLUMNS} FROM user_factors WHERE user_id = $1 AND kind = 'passkey' ORDER BY created_at, id`,
    [userId],
  );
  return rows.map(toPasskey);
}

async function findPasskey(db: SqlRunner, credentialId: string): Promise<Passkey | null> {
  const rows = await db.query<PasskeyRow>(
    `SELECT ${PASSKEY_COLUMNS} FROM user_factors WHERE credential_id = $1 AND kind = 'passkey'`,
    [credentialId],
  );
  return rows[0] ? toPasskey(rows[0]) : null;
}

/** One statement: of two replicas taking the same counter at once, the row lock lets one through. */
async function acceptPasskeyCounter(db: SqlRunner, factorId: string, signCount: number, nowMs: number) {
  const rows = await db.query(
    `UPDATE user_factors SET sign_count = $2, last_used_at = $3
      WHERE id = $1 AND kind = 'passkey' AND (sign_count < $2 OR (sign_count = 0 AND $2 = 0)) RETURNING id`,
    [factorId, signCount, nowMs],
  );
  return rows.length > 0;
}

async function addChallenge(db: SqlRunner, challenge: NewChallenge, nowMs: number): Promise<void> {
  await db.query('DELETE FROM webauthn_challenges WHERE expires_at <= $1', [nowMs]);
  await db.query(
    'INSERT INTO webauthn_challenges (challenge, purpose, binding, user_id, expires_at) VALUES ($1, $2, $3, $4, $5)',
    [challenge.challenge, challenge.purpose, challenge.binding, challenge.userId, challenge.expiresAt],
  );
}

async function takeChallenge(db: SqlRunner, args: Omit<NewChallenge, 'expiresAt'>, nowMs: number) {
  const rows = await db.query(
    `DELETE FROM webauthn_challenges
      WHERE challenge = $1 AND purpose = $2 AND binding = $3 AND user_id IS NOT DISTINCT FROM $4 AND expires_at > $5
      RETURNING challenge`,
    [args.challenge, args.purpose, args.binding, args.userId, nowMs],
  );
  return rows.length > 0;
}

export function passkeyStore({ db, clock }: RepositoryContext): PasskeyStore {
  return {
    addPasskey: (userId, passkey, hashes) => addPasskey(db, { userId, passkey, hashes }, clock.now()),
    listPasskeys: (userId) => listPasskeys(db, userId),
    findPasskey: (credentialId) => findPasskey(db, credentialId),
    acceptPasskeyCounter: (factorId, signCount) => acceptPasskeyCounter(db, factorId, signCount, clock.now()),
    addPasskeyChallenge: (challenge) => addChallenge(db, challenge, clock.now()),
    takePasskeyChallenge: (challenge, purpose, binding, userId) =>
      takeChallenge(db, { challenge, purpose, binding, userId }, clock.now()),
  };
}
