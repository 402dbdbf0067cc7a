import pg from 'pg';
import { StoreUnavailableError } from './errors.ts';
import { MIGRATION_LOCK_KEY, type SqlRunner } from './sql-runner.ts';

export interface PostgresTarget {
  databaseUrl: string;
  /** Schema to create (if missing) and use via search_path; unset = the server's default. */
  schema?: string | undefined;
  /** Bound on connecting and on each statement (DATABASE_TIMEOUT_MS); unset = DEFAULT_TIMEOUT_MS. */
  timeoutMs?: number | undefined;
}

/**
 * A database that stops answering (partition, failover, a lock held for good) fails store calls
 * after this long instead of hanging them and everything queued behind them in the pool. Our
 * statements take milliseconds; the longest wait is a revocation writer queueing for the table
 * lock behind the others (each holds it for one insert), far below this.
 */
export const DEFAULT_TIMEOUT_MS = 5000;
/** The server cancels a statement at the bound; the client waits this much longer for that answer (a silent network gets none). */
const CLIENT_GRACE_MS = 1000;
/** Idle connections (the LISTEN one above all) are probed after this long, so a vanished server is noticed. */
const KEEPALIVE_IDLE_MS = 10_000;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Connection settings shared by the pool and the LISTEN connection. */
export function clientConfig(target: PostgresTarget): pg.ClientConfig {
  if (target.schema !== undefined && !SCHEMA_NAME.test(target.schema)) {
    throw new TypeError(`store schema must match ${SCHEMA_NAME}: ${JSON.stringify(target.schema)}`);
  }
  const timeoutMs = target.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const config: pg.ClientConfig = {
    connectionString: target.databaseUrl,
    // Also the pool's bound on waiting for a free connection.
    connectionTimeoutMillis: timeoutMs,
    // Server side: the statement stops and releases its locks. Client side: the backstop.
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs + CLIENT_GRACE_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
  };
  if (target.schema) config.options = `-c search_path=${target.schema}`;
  return config;
}

export async function openPostgresRunner(target: PostgresTarget, onError: (error: Error) => void): Promise<SqlRunner> {
  const pool = new pg.Pool({ ...clientConfig(target), max: 10 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', onError);
  const runner = postgresRunner(pool);
  try {
    if (target.schema) await createSchema(runner, target.schema);
  } catch (error) {
    await runner.close();
    throw error;
  }
  return runner;
}

/** Under the migration lock: concurrent CREATE SCHEMA IF NOT EXISTS can still collide. */
async function createSchema(runner: SqlRunner, schema: string): Promise<void> {
  await runner.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  });
}

function postgresRunner(pool: pg.Pool): SqlRunner {
  let closed: Promise<void> | null = null;
  return {
    query: (sql, params) => run(pool, sql, params),
    exec: (sql) => execute(pool, sql),
    async transaction(work) {
      const client = await pool.connect().catch(unavailable);
      // A client whose ROLLBACK failed is in an unknown state: destroy it, never reuse it.
      let broken: Error | undefined;
      try {
        await execute(client, 'BEGIN');
        const result = await work({
          query: (sql, params) => run(client, sql, params),
          exec: (sql) => execute(client, sql),
        });
        await execute(client, 'COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    close() {
      closed ??= pool.end();
      return closed;
    },
  };
}

async function run<Row>(db: pg.Pool | pg.PoolClient, sql: string, params?: readonly unknown[]): Promise<Row[]> {
  const result = await db.query(sql, params ? [...params] : []).catch(unavailable);
  return result.rows as Row[];
}

async function execute(db: pg.Pool | pg.PoolClient, sql: string): Promise<void> {
  await db.query(sql).catch(unavailable);
}

/**
 * SQLSTATE classes of a server that cannot serve now, whatever the statement: 08 connection
 * exception, 53 insufficient resources (too many connections), 57 operator intervention
 * (shutting down, starting up, statement_timeout), 58 system error (I/O).
 */
const UNAVAILABLE_CLASSES = new Set(['08', '53', '57', '58']);

/**
 * Rethrows a failure of the driver as StoreUnavailableError when the database did not serve
 * the statement: an error answer of one of those classes, or no answer at all (refused, reset,
 * timed out, pool closed). An answer refusing the statement itself (a unique violation, a check)
 * and a mistake in our own arguments (TypeError) stay as they are.
 */
function unavailable(error: unknown): never {
  if (error instanceof pg.DatabaseError) {
    if (UNAVAILABLE_CLASSES.has((error.code ?? '').slice(0, 2))) throw new StoreUnavailableError(error);
    throw error;
  }
  if (error instanceof Error && !(error instanceof TypeError) && !(error instanceof RangeError))
    throw new StoreUnavailableError(error);
  throw error;
}
