import { describe } from 'vitest';
import { postgresHarness, TEST_DATABASE_URL } from './harness.ts';
import { storeSuite } from './store-suite.ts';
import { postgresTitle } from '#test/postgres-only.ts';

if (!TEST_DATABASE_URL) console.warn('PostgreSQL store tests skipped: TEST_DATABASE_URL is not set');

describe.skipIf(!TEST_DATABASE_URL)(postgresTitle('PostgreSQL store'), () => {
  storeSuite(() => postgresHarness(TEST_DATABASE_URL!));
});
