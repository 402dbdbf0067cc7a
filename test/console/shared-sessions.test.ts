import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDataDir } from '#test/store-template.ts';
import { startTcpRelay } from '#test/tcp-relay.ts';
import { temporaryDatabase } from '../e2e/support.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';
import { PortalClient } from './console-client.ts';
import { postgresTitle } from '#test/postgres-only.ts';

const base = process.env.TEST_DATABASE_URL;
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(env: Record<string, string>, dataDir?: string): Promise<TestUpstream> {
  const t = await startTestUpstream({ routes: [], env, ...(dataDir ? { dataDir } : {}) });
  cleanups.push(() => t.destroy());
  return t;
}

async function database(): Promise<string> {
  const db = await temporaryDatabase(base!);
  cleanups.push(db.drop);
  return db.url;
}

/** Sends the person's next request to this replica. */
function at(c: PortalClient, t: TestUpstream): PortalClient {
  c.base = t.upstream.adminUrl;
  return c;
}

const signedIn = (res: { status: number; text: string }) =>
  res.status === 200 && res.text.includes('<h1>Projects</h1>');

describe('portal sessions across restarts', () => {
  const backends = [
    { name: 'embedded store', env: async () => ({}) },
    ...(base ? [{ name: 'PostgreSQL', env: async () => ({ DATABASE_URL: await database() }) }] : []),
  ];

  it.each(backends)(
    'keeps a person signed in when the upstream restarts ($name): pages, the open form and sign-out work',
    async ({ env }) => {
      const settings = await env();
      // A restart is what this is about, not a first start: the embedded store starts migrated
      // (store-template.ts) rather than paying PGlite's initdb, seconds of CPU.
      const prefix = 'tokengate-portal-restart-';
      const dataDir =
        'DATABASE_URL' in settings ? await mkdtemp(join(tmpdir(), prefix)) : await migratedDataDir(prefix);
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      const before = await start(settings, dataDir);
      const c = at(new PortalClient(before.upstream.adminUrl), before);
      await c.signIn(before.adminToken);
      expect(signedIn(await c.get('/console/projects'))).toBe(true);
      await before.stop();

      const after = await start(settings, dataDir);
      // The form on the page shown before the restart still posts (its CSRF token is the session's).
      const created = await at(c, after).post('/console/projects', { name: 'after-restart', plan: 'free' });
      expect(created.status).toBe(303);
      expect((await c.follow(created)).text).toContain('Project “after-restart” created.');
      expect(signedIn(await c.get('/console/projects'))).toBe(true);
      const out = await c.post('/console/logout');
      expect(out.headers.get('location')).toBe('/console/login');
      expect((await c.get('/console/projects')).headers.get('location')).toBe('/console/login');
    },
    // Two upstream starts on one data directory: seconds idle, past 20 s on a loaded two-core machine.
    120_000,
  );
});

describe.skipIf(!base)(postgresTitle('portal sessions on upstream replicas sharing PostgreSQL'), () => {
  it('serves a session signed in on one replica on the other: pages, a CSRF-protected form, its notice once, and sign-out', async () => {
    const env = { DATABASE_URL: await database() };
    const [a, b] = await Promise.all([start(env), start(env)]);
    const c = new PortalClient(a.upstream.adminUrl);
    expect((await at(c, a).signIn(a.adminToken)).status).toBe(303);
    expect(signedIn(await at(c, b).get('/console/projects'))).toBe(true);

    // A form shown by A, posted to B; the notice B leaves is shown once, by A.
    await at(c, a).get('/console/projects');
    const created = await at(c, b).post('/console/projects', { name: 'via-b', plan: 'business' });
    expect(created.status).toBe(303);
    const shown = await at(c, a).get(created.headers.get('location') ?? '');
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Project “via-b” created.');
    expect((await at(c, b).get(created.headers.get('location') ?? '')).text).not.toContain('created.');

    // A forged form is still refused on either replica.
    const forged = await at(c, a).request('POST', '/console/projects', {
      form: { name: 'x', plan: 'free', csrf_token: 'x'.repeat(43) },
    });
    expect(forged.status).toBe(403);

    // Signing out on B (from a page A showed) ends the session on A too.
    await at(c, a).get('/console/signing-keys');
    const cookie = c.cookies.get('tokengate_portal') ?? '';
    expect((await at(c, b).post('/console/logout')).headers.get('location')).toBe('/console/login');
    const replay = new PortalClient(a.upstream.adminUrl);
    replay.cookies.set('tokengate_portal', cookie);
    expect((await replay.get('/console/projects')).headers.get('location')).toBe('/console/login');
  });

  it('answers the portal 503 page with Retry-After, not a stack trace, while the database does not answer, and serves the session again after', {
    timeout: 60_000,
  }, async () => {
    const db = new URL(await database());
    const relay = await startTcpRelay({ host: db.hostname, port: Number(db.port || 5432) });
    const relayed = new URL(db);
    relayed.host = `127.0.0.1:${relay.port}`;
    const t = await start({ DATABASE_URL: relayed.toString(), DATABASE_TIMEOUT_MS: '1000' });
    // Cut the relay before the upstream closes (registered last, so run first).
    cleanups.push(() => relay.close());
    const c = new PortalClient(t.upstream.adminUrl);
    await c.signIn(t.adminToken);
    await c.get('/console/projects');
    const csrfToken = c.csrfToken();

    relay.freeze();
    const signOut = () => c.request('POST', '/console/logout', { form: { csrf_token: csrfToken } });
    for (const res of [
      await c.get('/console/projects'),
      await signOut(),
      await new PortalClient(c.base).signIn(t.adminToken),
    ]) {
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).toContain('The portal cannot reach its database just now. Try again in a few seconds.');
      expect(res.text).not.toMatch(/Error|at .*\.ts|timeout/i);
    }
    relay.thaw();
    expect(signedIn(await c.get('/console/projects'))).toBe(true);
  });
});
