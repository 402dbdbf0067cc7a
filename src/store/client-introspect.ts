import { type ClientRow, COLUMNS, toClient } from './clients.ts';
import type { ClientStore, OAuthClient } from './repositories/clients.ts';
import type { RepositoryContext } from './repository-context.ts';
import type { SqlRunner } from './sql-runner.ts';

/**
 * Grants or withdraws a client's permission to call the introspection endpoint (migration 015);
 * null for an unknown client. Announced as a `client` change, so every replica's cached record
 * of the client is dropped at once.
 */
export async function setClientIntrospect(
  db: SqlRunner,
  clientId: string,
  allowed: boolean,
): Promise<OAuthClient | null> {
  const rows = await db.query<ClientRow>(
    `UPDATE oauth_clients SET introspect = $2 WHERE client_id = $1 RETURNING ${COLUMNS}`,
    [clientId, allowed],
  );
  return rows[0] ? toClient(rows[0]) : null;
}

/** The clients repository's introspection half, kept beside the rest of `ClientStore` in store.ts. */
export function clientIntrospectStore({ db, changing }: RepositoryContext): Pick<ClientStore, 'setClientIntrospect'> {
  return {
    setClientIntrospect: (clientId, allowed) =>
      changing(setClientIntrospect(db, clientId, allowed), 'client', (c) => c?.clientId ?? null),
  };
}
