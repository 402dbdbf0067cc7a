/**
 * The store's work per poll of the gateways' rate-limit policy feed at 100,000 projects and
 * 200,000 API keys, side by side in one run: the full read every poll used to do (every project
 * and usable key, serialised and hashed for the ETag, then answered 304) against the changes after
 * the gateway's cursor (migration 017), quiet and with one change per poll. Rounds interleave.
 *
 *   npm run bench -- policy-feed            # embedded PGlite in a temporary DATA_DIR
 *   TEST_DATABASE_URL=postgres://… npm run bench -- policy-feed   # also PostgreSQL, own schema
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '#common';
import { openBackend } from '../src/store/backend.ts';
import { loadMigrations, migrate } from '../src/store/migrate.ts';
import type { SqlRunner } from '../src/store/sql-runner.ts';
import { createStore } from '../src/store/store.ts';

const PROJECTS = 100_000;
const KEYS = 200_000;
const GATEWAYS = 10;
const POLLS_PER_SEC = 2; // policyRefreshMs 500

/** Rows the store returned and time spent in SQL, since the last `take()`. */
function counting(runner: SqlRunner) {
  let rows = 0;
  let ms = 0;
  let statements = 0;
  const query = async <Row>(sql: string, params?: readonly unknown[]) => {
    const started = performance.now();
    const result = await runner.query<Row>(sql, params);
    ms += performance.now() - started;
    rows += result.length;
    statements += 1;
    return result;
  };
  const wrapped: SqlRunner = { ...runner, query, exec: (sql) => runner.exec(sql) };
  const take = () => {
    const taken = { rows, ms, statements };
    rows = 0;
    ms = 0;
    statements = 0;
    return taken;
  };
  return { runner: wrapped, take };
}

/** Tuples the store's tables were read for (sequential + index fetches), from its statistics. */
async function tuplesRead(db: SqlRunner): Promise<number> {
  await db.query('SELECT pg_stat_force_next_flush()').catch(() => {});
  await db.query('SELECT pg_stat_clear_snapshot()');
  const rows = await db.query<{ n: unknown }>(
    `SELECT coalesce(sum(coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)), 0) AS n
       FROM pg_stat_user_tables WHERE schemaname = current_schema()`,
  );
  return Number(rows[0]?.n ?? 0);
}

async function seed(db: SqlRunner): Promise<void> {
  // Bulk rows, not changes: the policy triggers (and foreign-key checks) stay off while seeding.
  await db.query('SET session_replication_role = replica');
  const plan = `(ARRAY['free','business','enterprise'])[1 + i % 3]`;
  await db.query(
    `INSERT INTO accounts (id, name, plan, enabled, created_at)
     SELECT 'acc_bench' || i, 'account ' || i, ${plan}, true, 0 FROM generate_series(1, ${PROJECTS}) AS i`,
  );
  await db.query(
    `INSERT INTO projects (id, name, account_id, created_at)
     SELECT 'prj_bench' || i, 'project ' || i, 'acc_bench' || i, 0 FROM generate_series(1, ${PROJECTS}) AS i`,
  );
  await db.query(
    `INSERT INTO api_keys (key, project_id, secret_hash, created_at)
     SELECT 'key_bench' || i, 'prj_bench' || (1 + i % ${PROJECTS}), 'sha256:x', 0 FROM generate_series(1, ${KEYS}) AS i`,
  );
  await db.query(
    `INSERT INTO project_limits (project_id, override, updated_at)
     SELECT 'prj_bench' || i, '{"monthlyQuota":1000}', 0 FROM generate_series(1, ${PROJECTS}, 100) AS i`,
  );
  await db.query('SET session_replication_role = DEFAULT');
  await db.query('ANALYZE');
}

interface Row {
  readonly name: string;
  rounds: number;
  ms: number;
  rows: number;
  tuples: number;
  statements: number;
}

async function run(label: string, options: { dataDir: string; databaseUrl?: string; schema?: string }) {
  const backend = await openBackend(options, undefined);
  const { runner, take } = counting(backend.runner);
  await migrate(runner, await loadMigrations(), Date.now());
  const store = createStore({ ...backend, runner }, systemClock);
  try {
    let started = performance.now();
    await seed(runner);
    const seedMs = performance.now() - started;
    started = performance.now();
    const start = await store.policyChangesSince(null);
    const fullMs = performance.now() - started;
    let cursor = start.cursor;
    take();
    const cases: Row[] = [
      'full read every poll (before)',
      'changes after cursor, none (after)',
      'changes after cursor, one key disabled (after)',
    ].map((name) => ({ name, rounds: 0, ms: 0, rows: 0, tuples: 0, statements: 0 }));
    const measure = async (row: Row, work: () => Promise<void>) => {
      const before = await tuplesRead(backend.runner);
      take();
      await work();
      const used = take();
      row.tuples += (await tuplesRead(backend.runner)) - before;
      row.rounds += 1;
      row.ms += used.ms;
      row.rows += used.rows;
      row.statements += used.statements;
    };
    for (let round = 0; round < 5; round++) {
      await measure(cases[0] as Row, async () => {
        const [projects, keys] = await Promise.all([store.projectPolicies(), store.apiKeyProjects()]);
        const body = JSON.stringify({ projects, api_keys: keys });
        createHash('sha256').update(body).digest('base64url');
      });
      for (let i = 0; i < 20; i++)
        await measure(cases[1] as Row, async () => {
          cursor = (await store.policyChangesSince(cursor)).cursor;
        });
      for (let i = 0; i < 5; i++) {
        await store.setApiKeyEnabled(`key_bench${round * 5 + i + 1}`, false);
        await measure(cases[2] as Row, async () => {
          cursor = (await store.policyChangesSince(cursor)).cursor;
        });
      }
    }
    console.log(
      `${label}: ${PROJECTS.toLocaleString()} projects, ${KEYS.toLocaleString()} API keys (seeded in ${(seedMs / 1000).toFixed(1)} s; a gateway's first, full read: ${fullMs.toFixed(0)} ms, ${start.projects.length + start.apiKeys.length} rows)`,
    );
    console.log('per poll                                          SQL ms   rows returned   tuples read   statements');
    for (const c of cases)
      console.log(
        `${c.name.padEnd(48)} ${(c.ms / c.rounds).toFixed(2).padStart(8)} ${Math.round(c.rows / c.rounds)
          .toString()
          .padStart(15)} ${Math.round(c.tuples / c.rounds)
          .toString()
          .padStart(13)} ${(c.statements / c.rounds).toFixed(1).padStart(12)}`,
      );
    const [before, after] = [cases[0] as Row, cases[1] as Row];
    const perSec = (c: Row) => Math.round((c.tuples / c.rounds) * GATEWAYS * POLLS_PER_SEC).toLocaleString();
    console.log(
      `${GATEWAYS} gateways polling every ${1000 / POLLS_PER_SEC} ms: ${perSec(before)} tuples/s before, ${perSec(after)} after; SQL time per quiet poll ${(before.ms / before.rounds / (after.ms / after.rounds)).toFixed(0)}× less`,
    );
  } finally {
    await store.close();
  }
}

export default async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tg-policy-bench-'));
  try {
    await run('embedded (PGlite)', { dataDir });
    const url = process.env.TEST_DATABASE_URL;
    if (url) {
      const schema = `policy_bench_${process.pid}`;
      await run('PostgreSQL', { dataDir, databaseUrl: url, schema });
      const backend = await openBackend({ dataDir, databaseUrl: url }, undefined);
      await backend.runner.query(`DROP SCHEMA ${schema} CASCADE`);
      await backend.signal.close();
      await backend.runner.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
