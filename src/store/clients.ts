import type { Scope } from '#common';
import { isUniqueViolation, StoreError } from './errors.ts';
import { newClientId } from './ids.ts';
import { requireOAuthPlan } from './project-guard.ts';
import { previousSecret } from './previous-secret.ts';
import { type SqlRunner, toNumber } from './sql-runner.ts';
import type { ClientKeySet, ClientStore, NewClient, OAuthClient } from './repositories/clients.ts';
import type { RepositoryContext } from './repository-context.ts';

export interface ClientRow {
  client_id: string;
  project_id: string;
  name: string;
  scopes: Scope[];
  enabled: boolean;
  generation: unknown;
  secret_hash: string | null;
  previous_secret_hash: string | null;
  previous_valid_until: unknown;
  jwks: ClientKeySet | null;
  require_dpop: boolean;
  introspect: boolean;
  created_at: unknown;
}

export const COLUMNS =
  'client_id, project_id, name, scopes, enabled, generation, secret_hash, previous_secret_hash, previous_valid_until, jwks, require_dpop, introspect, created_at';

export function toClient(row: ClientRow): OAuthClient {
  return {
    clientId: row.client_id,
    projectId: row.project_id,
    name: row.name,
    scopes: [...row.scopes],
    enabled: row.enabled,
    generation: toNumber(row.generation),
    secretHash: row.secret_hash,
    previousSecret: previousSecret(row.previous_secret_hash, row.previous_valid_until),
    jwks: row.jwks,
    requireDpop: row.require_dpop,
    introspect: row.introspect,
    createdAt: toNumber(row.created_at),
  };
}

/** The unique index on a project's client names (migration 005): lower(btrim(name)). */
const NAME_INDEX = 'oauth_clients_project_name';

/** Throws StoreError `project_not_found`, `plan_forbids_oauth` or `client_name_taken`. */
export async function createClient(db: SqlRunner, input: NewClient, nowMs: number): Promise<OAuthClient> {
  try {
    return await db.transaction(async (tx) => {
      await requireOAuthPlan(tx, input.projectId);
      const rows = await tx.query<ClientRow>(
        `INSERT INTO oauth_clients (client_id, project_id, name, scopes, enabled, secret_hash, jwks, require_dpop, introspect, created_at)
         VALUES ($1, $2, $3, $4, true, $5, $6::jsonb, $8, $9, $7) RETURNING ${COLUMNS}`,
        [
          newClientId(),
          input.projectId,
          input.name,
          [...new Set(input.scopes)],
          input.secretHash ?? null,
          input.jwks === undefined ? null : JSON.stringify(input.jwks),
          nowMs,
          input.requireDpop ?? false,
          input.introspect ?? false,
        ],
      );
      return toClient(rows[0]!);
    });
  } catch (error) {
    if (!isUniqueViolation(error, NAME_INDEX)) throw error;
    throw new StoreError(
      'client_name_taken',
      `a client named ${JSON.stringify(input.name)} already exists in this project (names are compared ignoring case)`,
    );
  }
}

export async function getClient(db: SqlRunner, clientId: string): Promise<OAuthClient | null> {
  const rows = await db.query<ClientRow>(`SELECT ${COLUMNS} FROM oauth_clients WHERE client_id = $1`, [clientId]);
  return rows[0] ? toClient(rows[0]) : null;
}

export async function listClients(db: SqlRunner, projectId: string): Promise<OAuthClient[]> {
  const rows = await db.query<ClientRow>(
    `SELECT ${COLUMNS} FROM oauth_clients WHERE project_id = $1 ORDER BY created_at, client_id`,
    [projectId],
  );
  return rows.map(toClient);
}

/** A disable raises the generation in the same row update, so two disables never share one. */
export async function setClientEnabled(db: SqlRunner, clientId: string, enabled: boolean): Promise<OAuthClient | null> {
  const rows = await db.query<ClientRow>(
    `UPDATE oauth_clients SET enabled = $2, generation = generation + (CASE WHEN $2 THEN 0 ELSE 1 END)
     WHERE client_id = $1 RETURNING ${COLUMNS}`,
    [clientId, enabled],
  );
  return rows[0] ? toClient(rows[0]) : null;
}

/** Deletes the client's record; its revocations stay (they name the client, not its row). */
export async function deleteClient(db: SqlRunner, clientId: string): Promise<OAuthClient | null> {
  const rows = await db.query<ClientRow>(`DELETE FROM oauth_clients WHERE client_id = $1 RETURNING ${COLUMNS}`, [
    clientId,
  ]);
  return rows[0] ? toClient(rows[0]) : null;
}

export async function raiseClientGeneration(db: SqlRunner, clientId: string): Promise<number | null> {
  const rows = await db.query<{ generation: unknown }>(
    'UPDATE oauth_clients SET generation = generation + 1 WHERE client_id = $1 RETURNING generation',
    [clientId],
  );
  return rows[0] ? toNumber(rows[0].generation) : null;
}

/** Replaces a private_key_jwt client's key set; null when there is no such client or it uses a secret. */
export async function setClientJwks(db: SqlRunner, clientId: string, jwks: ClientKeySet): Promise<OAuthClient | null> {
  const rows = await db.query<ClientRow>(
    `UPDATE oauth_clients SET jwks = $2::jsonb WHERE client_id = $1 AND jwks IS NOT NULL RETURNING ${COLUMNS}`,
    [clientId, JSON.stringify(jwks)],
  );
  return rows[0] ? toClient(rows[0]) : null;
}

/** Makes the client's token requests need a DPoP proof, or not; null for an unknown client. */
export async function setClientRequireDpop(
  db: SqlRunner,
  clientId: string,
  required: boolean,
): Promise<OAuthClient | null> {
  const rows = await db.query<ClientRow>(
    `UPDATE oauth_clients SET require_dpop = $2 WHERE client_id = $1 RETURNING ${COLUMNS}`,
    [clientId, required],
  );
  return rows[0] ? toClient(rows[0]) : null;
}

export function clientStore({ db, clock, changing }: RepositoryContext): Omit<ClientStore, 'setClientIntrospect'> {
  return {
    createClient: (input) => changing(createClient(db, input, clock.now()), 'client', (c) => c.clientId),
    getClient: (clientId) => getClient(db, clientId),
    listClients: (projectId) => listClients(db, projectId),
    setClientEnabled: (clientId, enabled) =>
      changing(setClientEnabled(db, clientId, enabled), 'client', (c) => c?.clientId ?? null),
    deleteClient: (clientId) => changing(deleteClient(db, clientId), 'client', (c) => c?.clientId ?? null),
    raiseClientGeneration: (clientId) =>
      changing(raiseClientGeneration(db, clientId), 'client', (g) => (g === null ? null : clientId)),
    setClientJwks: (clientId, jwks) =>
      changing(setClientJwks(db, clientId, jwks), 'client', (c) => c?.clientId ?? null),
    setClientRequireDpop: (clientId, required) =>
      changing(setClientRequireDpop(db, clientId, required), 'client', (c) => c?.clientId ?? null),
  };
}
