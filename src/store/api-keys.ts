import { newApiKey } from './ids.ts';
import { lockProject } from './project-guard.ts';
import { previousSecret } from './previous-secret.ts';
import { type SqlRunner, toNumber } from './sql-runner.ts';
import type { ApiKey, ApiKeyStore } from './repositories/api-keys.ts';
import type { RepositoryContext } from './repository-context.ts';

export interface ApiKeyRow {
  key: string;
  project_id: string;
  secret_hash: string;
  previous_secret_hash: string | null;
  previous_valid_until: unknown;
  enabled: boolean;
  created_at: unknown;
}

const COLUMNS = 'key, project_id, secret_hash, previous_secret_hash, previous_valid_until, enabled, created_at';
/** The columns `toApiKey` reads (secret-rotation.ts updates them too). */
export const API_KEY_COLUMNS = COLUMNS;

export function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    key: row.key,
    projectId: row.project_id,
    secretHash: row.secret_hash,
    previousSecret: previousSecret(row.previous_secret_hash, row.previous_valid_until),
    enabled: row.enabled,
    createdAt: toNumber(row.created_at),
  };
}

/** Any plan may hold API keys (the key/secret method). Throws StoreError `project_not_found`. */
export function createApiKey(
  db: SqlRunner,
  input: { projectId: string; secretHash: string },
  nowMs: number,
): Promise<ApiKey> {
  return db.transaction(async (tx) => {
    await lockProject(tx, input.projectId);
    const rows = await tx.query<ApiKeyRow>(
      `INSERT INTO api_keys (key, project_id, secret_hash, created_at) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
      [newApiKey(), input.projectId, input.secretHash, nowMs],
    );
    return toApiKey(rows[0]!);
  });
}

export async function getApiKey(db: SqlRunner, key: string): Promise<ApiKey | null> {
  const rows = await db.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE key = $1`, [key]);
  return rows[0] ? toApiKey(rows[0]) : null;
}

/** Disables or enables the key; returns it as it now is, or null if there is none. */
export async function setApiKeyEnabled(db: SqlRunner, key: string, enabled: boolean): Promise<ApiKey | null> {
  const rows = await db.query<ApiKeyRow>(`UPDATE api_keys SET enabled = $2 WHERE key = $1 RETURNING ${COLUMNS}`, [
    key,
    enabled,
  ]);
  return rows[0] ? toApiKey(rows[0]) : null;
}

/** Deletes the key (its secret stops working); returns what was deleted, or null if there was none. */
export async function deleteApiKey(db: SqlRunner, key: string): Promise<ApiKey | null> {
  const rows = await db.query<ApiKeyRow>(`DELETE FROM api_keys WHERE key = $1 RETURNING ${COLUMNS}`, [key]);
  return rows[0] ? toApiKey(rows[0]) : null;
}

/** A project's API keys, oldest first (the account portal lists them). */
export async function listApiKeys(db: SqlRunner, projectId: string): Promise<ApiKey[]> {
  const rows = await db.query<ApiKeyRow>(
    `SELECT ${COLUMNS} FROM api_keys WHERE project_id = $1 ORDER BY created_at, key`,
    [projectId],
  );
  return rows.map(toApiKey);
}

export function apiKeyStore({ db, clock, changing }: RepositoryContext): ApiKeyStore {
  return {
    createApiKey: (input) => changing(createApiKey(db, input, clock.now()), 'api_key', (k) => k.key),
    getApiKey: (key) => getApiKey(db, key),
    setApiKeyEnabled: (key, enabled) => changing(setApiKeyEnabled(db, key, enabled), 'api_key', (k) => k?.key ?? null),
    deleteApiKey: (key) => changing(deleteApiKey(db, key), 'api_key', (k) => k?.key ?? null),
    listApiKeys: (projectId) => listApiKeys(db, projectId),
  };
}
