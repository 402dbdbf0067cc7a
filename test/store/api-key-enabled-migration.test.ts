import { describe, expect, it } from 'vitest';
import type { Store } from '#store';
import { loadMigrations, migrate } from '../../src/store/migrate.ts';
import type { SqlRunner } from '../../src/store/sql-runner.ts';
import { fakeClock, TEST_DATABASE_URL } from './harness.ts';
import { UPGRADE_TIMEOUT_MS, upgradeEmbedded, upgradePostgres } from './upgrade.ts';
import { postgresTitle } from '#test/postgres-only.ts';

const clock = fakeClock(1_800_000_000_000);
const KEY = `key_${'k'.repeat(22)}`;

/** A database as the version before API keys could be disabled left it: one key in use. */
async function seedKey(runner: SqlRunner): Promise<void> {
  const before = (await loadMigrations()).filter((m) => m.version < 13);
  await migrate(runner, before, clock.now());
  await runner.exec(`
    INSERT INTO accounts (id, name, plan, enabled, created_at) VALUES ('acc_keys', 'Keys', 'free', true, 1);
    INSERT INTO projects (id, name, account_id, created_at) VALUES ('prj_keys', 'keys', 'acc_keys', 1);
    INSERT INTO api_keys (key, project_id, secret_hash, created_at) VALUES ('${KEY}', 'prj_keys', 'h', 2);
  `);
}

async function expectStillEnabled(store: Store): Promise<void> {
  expect(await store.getApiKey(KEY)).toEqual({
    key: KEY,
    projectId: 'prj_keys',
    secretHash: 'h',
    previousSecret: null,
    enabled: true,
    createdAt: 2,
  });
  expect(await store.setApiKeyEnabled(KEY, false)).toMatchObject({ key: KEY, enabled: false });
}

describe('upgrading a store whose API keys had no enabled state', () => {
  it('keeps every existing key enabled (embedded)', { timeout: UPGRADE_TIMEOUT_MS }, async () => {
    await upgradeEmbedded(clock, seedKey, expectStillEnabled);
  });

  it.skipIf(!TEST_DATABASE_URL)(postgresTitle('keeps every existing key enabled (PostgreSQL)'), async () => {
    await upgradePostgres(clock, seedKey, expectStillEnabled);
  });
});
