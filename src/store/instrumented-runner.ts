import { storeQueryChannel } from '#common';
import type { Queryable, SqlRunner } from './sql-runner.ts';

/**
 * Every statement reported on `tokengate:store:query` (start, settle, error), for the upstream's
 * store metrics and spans. Nobody subscribed, `tracePromise` runs the query as it is.
 */
export function instrumentedRunner(runner: SqlRunner): SqlRunner {
  return {
    ...instrumented(runner),
    transaction: (work) => runner.transaction((tx) => work(instrumented(tx))),
    close: () => runner.close(),
  };
}

function instrumented(db: Queryable): Queryable {
  return {
    query: <Row>(sql: string, params?: readonly unknown[]) =>
      storeQueryChannel.tracePromise(() => db.query<Row>(sql, params), { sql }),
    exec: (sql) => storeQueryChannel.tracePromise(() => db.exec(sql), { sql }),
  };
}
