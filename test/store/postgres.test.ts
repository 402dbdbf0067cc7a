import { describe } from 'vitest';
import { postgresHarness, TEST_DATABASE_URL } from './harness.ts';
import { storeSuite } from './store-suite.ts';

if (!TEST_DATABASE_URL) console.warn('PostgreSQL store tests skipped: TEST_DATABASE_URL is not set');

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL store (skipped: TEST_DATABASE_URL is not set)', () => {
  storeSuite(() => postgresHarness(TEST_DATABASE_URL!));
});
