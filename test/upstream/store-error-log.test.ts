import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { temporaryDatabase } from '../e2e/support.ts';
import { startTestUpstream } from './upstream-fixture.ts';
import { postgresTitle } from '#test/postgres-only.ts';

const base = process.env.TEST_DATABASE_URL;

describe.skipIf(!base)(postgresTitle('store failures in the upstream log'), () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('never logs the row PostgreSQL quotes when a signing-key write fails, so an EdDSA private key stays out of the log', async () => {
    const db = await temporaryDatabase(base!);
    cleanups.push(db.drop);
    const t = await startTestUpstream({ env: { DATABASE_URL: db.url, SIGNING_ALG: 'EdDSA' } });
    cleanups.push(() => t.destroy());
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    // Any write the table refuses makes PostgreSQL quote the whole row ("Failing row contains (...)").
    await sql.query('ALTER TABLE signing_keys ADD CONSTRAINT refuse_writes CHECK (false) NOT VALID');
    const { rows } = await sql.query<{ d: string }>(
      "SELECT private_key::json->>'d' AS d FROM signing_keys WHERE status = 'active'",
    );
    await sql.end();
    const d = rows[0]?.d ?? '';
    expect(d).toHaveLength(43);

    const rotate = await t.admin('POST', '/keys/rotate');

    expect(rotate.status).toBe(500);
    expect(t.logs()).toContain('refuse_writes');
    expect(t.logs()).not.toContain(d.slice(0, 16));
    expect(t.logs()).not.toContain('Failing row contains');
  });
});
