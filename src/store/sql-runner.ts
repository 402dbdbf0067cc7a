/**
 * The tiny seam between the store and its two backends (PGlite, PostgreSQL): both run the
 * same SQL with `$n` parameters. Rows come back as plain objects keyed by column name.
 */
export interface Queryable {
  query<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a parameterless script of several statements (migrations). */
  exec(sql: string): Promise<void>;
}

export interface SqlRunner extends Queryable {
  /** Runs `work` in one transaction: COMMIT when it resolves, ROLLBACK when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** pg returns bigint columns as strings, PGlite as numbers: read both the same way. */
export function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

export function toNullableNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : toNumber(value);
}

/** Advisory lock held while creating the schema and migrating: replicas starting together wait. */
export const MIGRATION_LOCK_KEY = 746_574_001;
