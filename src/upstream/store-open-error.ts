import { StoreUnavailableError } from '#store';

/** pg's words for a server that accepted the connection, or a statement, and never answered. */
const PG_TIMEOUTS = new Set([
  'timeout expired',
  'Query read timeout',
  'Connection terminated due to connection timeout',
]);

/**
 * A PostgreSQL that cannot be opened at start (down, wrong host, role or database): the upstream
 * exits 1 (a supervisor restarts it) with a line naming the database, which pg's own messages
 * ("Connection terminated unexpectedly", "role \"x\" does not exist") do not. Host, port and
 * database only: never the user or password. Embedded errors already name the directory.
 */
export function storeOpenError(error: unknown, databaseUrl: string | undefined, timeoutMs: number): unknown {
  if (!databaseUrl) return error;
  // The driver's own error: its words name what went wrong.
  const driver = error instanceof StoreUnavailableError ? error.cause : error;
  let reason = driver instanceof Error ? driver.message : String(driver);
  // 57014: a statement cancelled by statement_timeout (a migration at start).
  const statementTimeout = driver instanceof Error && 'code' in driver && driver.code === '57014';
  if (PG_TIMEOUTS.has(reason) || statementTimeout) reason += ` (no answer within ${timeoutMs} ms: DATABASE_TIMEOUT_MS)`;
  let where = '';
  try {
    const url = new URL(databaseUrl);
    where = ` at ${url.host}${url.pathname}`;
  } catch {
    // The configuration checked it; name nothing rather than quote it.
  }
  return new Error(`cannot open the database${where} (DATABASE_URL): ${reason}`, { cause: error });
}
