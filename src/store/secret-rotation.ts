import { API_KEY_COLUMNS, type ApiKeyRow, toApiKey } from './api-keys.ts';
import { COLUMNS as CLIENT_COLUMNS, type ClientRow, toClient } from './clients.ts';
import type { SecretStore } from './repositories/secrets.ts';
import type { RepositoryContext } from './repository-context.ts';
import type { SqlRunner } from './sql-runner.ts';

/*
 * One UPDATE per change: the SET expressions read the row as it was, so the current hash moves
 * to `previous_secret_hash` and the new one takes its place atomically, and two rotations racing
 * on two replicas leave one previous secret, never three valid ones. An overlap of null keeps no
 * previous secret (the old one stops at once).
 */
const ROTATE = (table: string) => `UPDATE ${table}
   SET previous_secret_hash = CASE WHEN $3::bigint IS NULL THEN NULL ELSE secret_hash END,
       previous_valid_until = $3::bigint,
       secret_hash = $2
 WHERE %KEY% = $1 AND secret_hash IS NOT NULL`;

const RETIRE = (table: string) => `UPDATE ${table}
   SET previous_secret_hash = NULL, previous_valid_until = NULL
 WHERE %KEY% = $1 AND secret_hash IS NOT NULL`;

async function clientUpdate(db: SqlRunner, sql: string, params: unknown[]) {
  const rows = await db.query<ClientRow>(`${sql.replace('%KEY%', 'client_id')} RETURNING ${CLIENT_COLUMNS}`, params);
  return rows[0] ? toClient(rows[0]) : null;
}

async function apiKeyUpdate(db: SqlRunner, sql: string, params: unknown[]) {
  const rows = await db.query<ApiKeyRow>(`${sql.replace('%KEY%', 'key')} RETURNING ${API_KEY_COLUMNS}`, params);
  return rows[0] ? toApiKey(rows[0]) : null;
}

export function secretStore({ db, changing }: RepositoryContext): SecretStore {
  return {
    rotateClientSecret: (clientId, secretHash, previousValidUntil) =>
      changing(
        clientUpdate(db, ROTATE('oauth_clients'), [clientId, secretHash, previousValidUntil]),
        'client',
        (c) => c?.clientId ?? null,
      ),
    retireClientSecret: (clientId) =>
      changing(clientUpdate(db, RETIRE('oauth_clients'), [clientId]), 'client', (c) => c?.clientId ?? null),
    rotateApiKeySecret: (key, secretHash, previousValidUntil) =>
      changing(
        apiKeyUpdate(db, ROTATE('api_keys'), [key, secretHash, previousValidUntil]),
        'api_key',
        (k) => k?.key ?? null,
      ),
    retireApiKeySecret: (key) =>
      changing(apiKeyUpdate(db, RETIRE('api_keys'), [key]), 'api_key', (k) => k?.key ?? null),
  };
}
