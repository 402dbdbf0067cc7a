import pg from 'pg';

/**
 * A fresh database on the machine's PostgreSQL for the bench's upstream (replicas run on
 * PostgreSQL; the embedded store's own memory would hide the data set's), dropped by `drop`.
 * Null when no PostgreSQL answers at `BENCH_POSTGRES_URL` (default the local one).
 */
export async function benchDatabase(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const admin = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `tokengate_address_bench_${process.pid}`;
  const run = async (sql: string): Promise<boolean> => {
    const client = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query(sql);
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  };
  if (!(await run(`CREATE DATABASE ${name}`))) return null;
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
