import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/cli-runner.ts';
import { type ReplicaPair, startReplicaPair } from '../upstream/replica-pair.ts';
import type { TestUpstream } from '../upstream/upstream-fixture.ts';
import { postgresTitle } from '#test/postgres-only.ts';

type Json = Record<string, unknown>;
const base = process.env.TEST_DATABASE_URL;
const PHONE = '/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU';
/** Every change holds on every replica within a second. */
const BOUND_MS = 1000;

interface Sent {
  readonly secret: 'old' | 'new';
  readonly at: 'replica 1' | 'replica 2';
  readonly start: number;
  readonly end: number;
  readonly status: number;
}

/**
 * Secret rotation on two upstream replicas on one PostgreSQL database (in-process, real clocks):
 * a client's secret replaced on replica 1 while token requests with the old secret run against
 * both, and a retire on replica 1 that replica 2, which holds the client in its cache, applies
 * within a second.
 */
describe.skipIf(!base)(postgresTitle('secret rotation on two replicas'), () => {
  let first: TestUpstream;
  let second: TestUpstream;
  let pair: ReplicaPair | undefined;
  let projectId: string;
  beforeAll(async () => {
    pair = await startReplicaPair(base as string);
    ({ first, second } = pair);
    const project = await first.admin('POST', '/projects', { name: 'Rotating', plan: 'business' });
    projectId = String((project.body as Json)['id']);
  }, 180_000);
  afterAll(() => pair?.close());

  const replicas = () => [first, second] as const;
  const newClient = async (name: string) => {
    const res = await first.admin('POST', `/projects/${projectId}/clients`, { name, scopes: ['phone'] });
    expect(res.status).toBe(201);
    const body = res.body as Json;
    return { id: String(body['client_id']), secret: String(body['client_secret']) };
  };
  const tokenStatus = async (t: TestUpstream, id: string, secret: string) => {
    const res = await fetch(`${t.upstream.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret }),
    });
    await res.body?.cancel();
    return res.status;
  };
  /** Asks until `done` holds or the window passes: the ms from `since` it took, or null. */
  const within = async (ask: () => Promise<number>, done: (status: number) => boolean, windowMs = 5000) => {
    const since = performance.now();
    for (;;) {
      if (done(await ask())) return Math.round(performance.now() - since);
      if (performance.now() - since > windowMs) return null;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it('fails no token request with the old secret during the overlap, and every one after it (under load)', async () => {
    const client = await newClient('under-load');
    let fresh: string | undefined;
    let stopAt = Number.POSITIVE_INFINITY;
    const sent: Sent[] = [];
    // Five loops on keep-alive connections (fetch's pool), alternating the replicas, until 2 s past the overlap.
    const loop = async (which: 'old' | 'new', lane: number) => {
      for (let i = lane; Date.now() < stopAt; i++) {
        const secret = which === 'old' ? client.secret : fresh;
        if (secret === undefined) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        const at = i % 2 === 0 ? 'replica 1' : 'replica 2';
        const start = Date.now();
        const status = await tokenStatus(at === 'replica 1' ? first : second, client.id, secret);
        sent.push({ secret: which, at, start, end: Date.now(), status });
      }
    };
    const loops = [loop('old', 0), loop('old', 1), loop('old', 2), loop('new', 0), loop('new', 1)];
    await new Promise((resolve) => setTimeout(resolve, 300));
    const rotated = await runCli(['admin', 'client', 'secret', 'rotate', client.id, '--overlap', '2s', '--json'], {
      ADMIN_URL: first.upstream.adminUrl,
      DATA_DIR: first.dataDir,
    });
    expect(rotated).toMatchObject({ code: 0, stderr: '' });
    const answer = JSON.parse(rotated.stdout) as { client_secret: string; previous_valid_until: string };
    fresh = answer.client_secret;
    const validUntil = Date.parse(answer.previous_valid_until);
    stopAt = validUntil + 2000;
    await Promise.all(loops);

    const old = sent.filter((s) => s.secret === 'old');
    const during = old.filter((s) => s.end < validUntil);
    const after = old.filter((s) => s.start >= validUntil);
    const withNew = sent.filter((s) => s.secret === 'new');
    console.log(
      `[secret-rotation] ${sent.length} token requests: old secret ${during.length} during the overlap, ` +
        `${after.length} after it, ${old.length - during.length - after.length} across its end; new secret ${withNew.length}`,
    );
    // How many fit depends on the machine's load (about 100 on two loaded cores, several hundred idle).
    expect(during.length).toBeGreaterThan(20);
    expect(after.length).toBeGreaterThan(1);
    expect(during.filter((s) => s.status !== 200)).toEqual([]);
    expect(after.filter((s) => s.status !== 401 && s.status !== 429)).toEqual([]);
    expect(withNew.filter((s) => s.status !== 200)).toEqual([]);
    expect(new Set(during.map((s) => s.at))).toEqual(new Set(['replica 1', 'replica 2']));
    expect(new Set(after.map((s) => s.at))).toEqual(new Set(['replica 1', 'replica 2']));
  }, 60_000);

  it('keeps the old secret on replica 2 after a rotation on replica 1, and refuses it within a second of a retire there', async () => {
    const client = await newClient('retired');
    // Replica 2 holds the client in its cache.
    expect(await tokenStatus(second, client.id, client.secret)).toBe(200);
    const rotated = await first.admin('POST', `/clients/${client.id}/secret/rotate`, { overlap: '1h' });
    expect(rotated.status).toBe(200);
    const fresh = String((rotated.body as Json)['client_secret']);
    const seen = await within(
      () => tokenStatus(second, client.id, fresh),
      (s) => s === 200,
    );
    expect(seen).not.toBeNull();
    expect(seen as number).toBeLessThan(BOUND_MS);
    for (const t of replicas()) expect(await tokenStatus(t, client.id, client.secret)).toBe(200);
    const shown = (await second.admin('GET', `/clients/${client.id}`)).body as Json;
    expect(shown['previous_valid_until']).toBe((rotated.body as Json)['previous_valid_until']);

    const retired = await first.admin('POST', `/clients/${client.id}/secret/retire`);
    expect(retired).toMatchObject({ status: 200, body: { client_id: client.id, previous_valid_until: null } });
    const refused = await within(
      () => tokenStatus(second, client.id, client.secret),
      (s) => s !== 200,
    );
    console.log(`[secret-rotation] retired on replica 1, old secret refused on replica 2 after ${refused} ms`);
    expect(refused).not.toBeNull();
    expect(refused as number).toBeLessThan(BOUND_MS);
    expect(await tokenStatus(second, client.id, fresh)).toBe(200);
    expect((await second.admin('GET', `/clients/${client.id}`)).body).toMatchObject({ previous_valid_until: null });
  });

  it('keeps an API key’s old secret on replica 2 after a rotation on replica 1, and refuses it within a second of a retire', async () => {
    const created = (await first.admin('POST', `/projects/${projectId}/apikeys`)).body as Json;
    const key = String(created['key']);
    const keyCall = async (t: TestUpstream, secret: string) => {
      const res = await fetch(`${t.upstream.url}${PHONE}&key=${encodeURIComponent(key)}`, {
        headers: { authorization: secret },
      });
      await res.body?.cancel();
      return res.status;
    };
    expect(await keyCall(second, String(created['secret']))).toBe(200);
    const rotated = await first.admin('POST', `/apikeys/${key}/secret/rotate`, { overlap: '1h' });
    expect(rotated.status).toBe(200);
    const fresh = String((rotated.body as Json)['secret']);
    const seen = await within(
      () => keyCall(second, fresh),
      (s) => s === 200,
    );
    expect(seen).not.toBeNull();
    expect(seen as number).toBeLessThan(BOUND_MS);
    expect(await keyCall(second, String(created['secret']))).toBe(200);

    const retired = await first.admin('POST', `/apikeys/${key}/secret/retire`);
    expect(retired).toMatchObject({ status: 200, body: { key, previous_valid_until: null } });
    const refused = await within(
      () => keyCall(second, String(created['secret'])),
      (s) => s === 401,
    );
    console.log(`[secret-rotation] API key retired on replica 1, old secret refused on replica 2 after ${refused} ms`);
    expect(refused).not.toBeNull();
    expect(refused as number).toBeLessThan(BOUND_MS);
    expect(await keyCall(second, fresh)).toBe(200);
  });
});
