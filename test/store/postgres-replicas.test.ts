import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore, type Store, type StoreChange } from '#store';
import { loadMigrations } from '../../src/store/migrate.ts';
import {
  adminQuery,
  captureLogger,
  fakeClock,
  nextRevocationSignal,
  postgresHarness,
  type StoreHarness,
  TEST_DATABASE_URL,
} from './harness.ts';
import { postgresTitle } from '#test/postgres-only.ts';

const url = TEST_DATABASE_URL ?? '';
const clock = fakeClock(1_800_000_000_000);
const entry = (value: string) => ({ kind: 'jti' as const, value, issuedBefore: null, expiresAt: 4_000_000_000 });

describe.skipIf(!TEST_DATABASE_URL)(postgresTitle('PostgreSQL replicas'), () => {
  const harnesses: StoreHarness[] = [];
  const stores: Store[] = [];
  const open = async (harness: StoreHarness) => {
    const store = await harness.open(clock);
    stores.push(store);
    return store;
  };
  const newHarness = async () => {
    const harness = await postgresHarness(url);
    harnesses.push(harness);
    return harness;
  };
  let shared: StoreHarness;

  beforeAll(async () => {
    shared = await newHarness();
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  afterAll(async () => {
    await Promise.all(harnesses.map((harness) => harness.dispose()));
  });

  it('lets only one of two replicas creating a client of the same name at the same time succeed', async () => {
    const [first, second] = [await open(shared), await open(shared)];
    const project = await first.createProject({ name: 'race', plan: 'business' });
    for (let round = 0; round < 5; round++) {
      const attempts = await Promise.allSettled(
        [first, second].map((store, i) =>
          store.createClient({
            projectId: project.id,
            name: i === 0 ? `worker ${round}` : `Worker ${round}`,
            scopes: ['email'],
            secretHash: 'h',
          }),
        ),
      );
      expect(attempts.map((a) => a.status).sort()).toEqual(['fulfilled', 'rejected']);
      expect(attempts.find((a) => a.status === 'rejected')?.reason).toMatchObject({ code: 'client_name_taken' });
    }
    expect(await second.listClients(project.id)).toHaveLength(5);
  });

  it('wakes a long-poll on another replica through NOTIFY when a revocation is added', async () => {
    const [writer, reader] = [await open(shared), await open(shared)];
    const woke = nextRevocationSignal(reader);
    const added = await writer.addRevocation(entry('cross-replica'));
    await woke;
    expect(await reader.revocationsSince(added.seq - 1, 0)).toEqual([added]);
  });

  it('tells another replica what changed, by kind and id, through NOTIFY', async () => {
    const [writer, reader] = [await open(shared), await open(shared)];
    const heard: StoreChange[] = [];
    reader.onChange((change) => heard.push(change));
    const project = await writer.createProject({ name: 'heard', plan: 'business' });
    await writer.deleteProject(project.id);
    await vi.waitFor(() =>
      expect(heard).toEqual([
        { kind: 'project', id: project.id },
        { kind: 'project', id: project.id },
      ]),
    );
  });

  it('tells change listeners to resync once LISTEN is back after its connection was killed', async () => {
    const [writer, reader] = [await open(shared), await open(shared)];
    const heard: StoreChange[] = [];
    reader.onChange((change) => heard.push(change));
    await adminQuery(
      url,
      `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
       WHERE application_name = $1 AND pid <> pg_backend_pid()`,
      [`tokengate-revocation-listener:${shared.schema}`],
    );
    await vi.waitFor(() => expect(heard).toContainEqual({ kind: 'resync', id: null }), { timeout: 5000 });
    const project = await writer.createProject({ name: 'after', plan: 'business' });
    await vi.waitFor(() => expect(heard).toContainEqual({ kind: 'project', id: project.id }), { timeout: 5000 });
  });

  it('does not wake stores of another schema on the same database', async () => {
    const [mine, other] = [await open(shared), await open(await newHarness())];
    let wakes = 0;
    other.onRevocation(() => wakes++);
    await mine.addRevocation(entry('schema-a'));
    // Notifications arrive in commit order: once other's own one is in, mine's was seen and ignored.
    const woke = nextRevocationSignal(other);
    await other.addRevocation(entry('schema-b'));
    await woke;
    expect(wakes).toBe(1);
  });

  it('re-establishes LISTEN after its connection is killed and wakes listeners once for what it missed', async () => {
    const [writer, reader] = [await open(shared), await open(shared)];
    const missed = nextRevocationSignal(reader);
    const killed = await adminQuery(
      url,
      `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
       WHERE application_name = $1 AND pid <> pg_backend_pid()`,
      [`tokengate-revocation-listener:${shared.schema}`],
    );
    expect(killed).toHaveLength(2);
    // The reader wakes once it listens again (it cannot know what it missed meanwhile) ...
    await missed;
    // ... and from then on hears new revocations as before.
    const woke = nextRevocationSignal(reader);
    await writer.addRevocation(entry('after-reconnect'));
    await expect(woke).resolves.toBeUndefined();
  });

  it('lets a reader following the cursor see every entry while replicas add concurrently', async () => {
    const harness = await newHarness();
    const [a, b, reader] = [await open(harness), await open(harness), await open(harness)];
    const seen = new Set<string>();
    let cursor = 0;
    const follow = async () => {
      for (const revocation of await reader.revocationsSince(cursor, 0)) {
        seen.add(revocation.value);
        cursor = revocation.seq;
      }
    };
    let writing = true;
    const writes = Promise.all(
      [a, b].map(async (store, s) => {
        for (let i = 0; i < 25; i++) await store.addRevocation(entry(`w${s}-${i}`));
      }),
    ).finally(() => {
      writing = false;
    });
    while (writing) await follow();
    await writes;
    await follow();
    expect(seen.size).toBe(50);
  });

  it('applies migrations once when two replicas start together on an empty schema', async () => {
    const harness = await newHarness();
    const logs = [captureLogger(), captureLogger()];
    const pair = await Promise.all(logs.map(({ log }) => harness.open(clock, log)));
    stores.push(...pair);
    const applied = logs.map(({ lines }) => lines.find((l) => l.msg === 'store opened')?.appliedMigrations);
    expect(applied).toContainEqual([]);
    expect(applied).toContainEqual((await loadMigrations()).map((m) => m.version));
  });

  it('creates its tables in the configured schema only', async () => {
    const harness = await newHarness();
    await open(harness);
    const tables = await adminQuery(
      url,
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
      [harness.schema],
    );
    expect(tables.map((t) => t.table_name)).toEqual([
      'account_activity',
      'accounts',
      'api_keys',
      'invitations',
      'memberships',
      'oauth_clients',
      'policy_changes',
      'policy_feed',
      'portal_sessions',
      'project_limits',
      'project_usage',
      'projects',
      'recovery_codes',
      'revocations',
      'schema_migrations',
      'signing_keys',
      'used_jtis',
      'user_factors',
      'users',
      'webauthn_challenges',
    ]);
  });

  it('refuses a schema name that is not a plain lowercase identifier', async () => {
    await expect(openStore({ dataDir: '.', databaseUrl: url, schema: 'x; DROP TABLE y' })).rejects.toThrow(TypeError);
  });
});
