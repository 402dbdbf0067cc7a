import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPhoneRoute } from '#validation';
import { createFakeClock } from '#test/fake-clock.ts';
import { runCli } from '../cli/cli-runner.ts';
import { startTestUpstream, type TestUpstream } from '../upstream/upstream-fixture.ts';

type Json = Record<string, unknown>;
const PHONE = '/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU';
const HOUR = 3_600_000;

/**
 * `tokengate admin client secret rotate|retire`, `client show` and `apikey secret rotate`
 * (in-process) against a real upstream whose clock the test moves: the previous secret works at
 * the token endpoint (and the validation API, for a key) until its overlap ends, and not after.
 */
describe('secret rotation with an overlap, through the CLI', () => {
  const clock = createFakeClock(Date.now());
  let t: TestUpstream;
  let env: Record<string, string>;
  let projectId: string;
  let accountId: string;
  beforeAll(async () => {
    // The phone route alone: no address data set to load.
    t = await startTestUpstream({ clock, routes: [createPhoneRoute()] });
    env = { ADMIN_URL: t.upstream.adminUrl, DATA_DIR: t.dataDir };
    const project = (await t.admin('POST', '/projects', { name: 'Rotating', plan: 'business' })).body as Json;
    projectId = String(project['id']);
    accountId = String(project['account_id']);
    // The run's first embedded store is migrated here: under load, that alone can take a minute.
  }, 180_000);
  afterAll(async () => {
    await t?.destroy();
  });

  const json = async (args: string[]): Promise<Json> => {
    const result = await runCli(['admin', ...args, '--json'], env);
    expect(result, args.join(' ')).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(result.stdout) as Json;
  };
  const newClient = async (name: string) => {
    const created = await json(['client', 'create', '--project', projectId, '--name', name, '--scopes', 'phone']);
    return { id: String(created['client_id']), secret: String(created['client_secret']) };
  };
  /** The token endpoint's status for this id and secret. Each refusal is followed by a minute, so the guard never counts up to 429. */
  const tokenStatus = async (id: string, secret: string) => {
    const res = await fetch(`${t.upstream.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret }),
    });
    await res.body?.cancel();
    if (res.status !== 200) clock.advance(61_000);
    return res.status;
  };
  const iso = (ms: number) => new Date(ms).toISOString();

  it('keeps the old secret working for 24 h by default, and only the new one after', async () => {
    const client = await newClient('default-overlap');
    const rotatedAt = clock.now();
    const rotated = await json(['client', 'secret', 'rotate', client.id]);
    expect(Object.keys(rotated)).toEqual(['client_id', 'client_secret', 'previous_valid_until']);
    expect(rotated).toEqual({
      client_id: client.id,
      client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      previous_valid_until: iso(rotatedAt + 24 * HOUR),
    });
    const fresh = String(rotated['client_secret']);
    expect(fresh).not.toBe(client.secret);
    expect([await tokenStatus(client.id, client.secret), await tokenStatus(client.id, fresh)]).toEqual([200, 200]);
    expect(await json(['client', 'show', client.id])).toEqual({
      client_id: client.id,
      name: 'default-overlap',
      scopes: ['phone'],
      enabled: true,
      auth: 'client_secret',
      require_dpop: false,
      introspect: false,
      previous_valid_until: iso(rotatedAt + 24 * HOUR),
    });

    clock.set(rotatedAt + 24 * HOUR - 1);
    expect(await tokenStatus(client.id, client.secret)).toBe(200);
    clock.set(rotatedAt + 24 * HOUR);
    expect([await tokenStatus(client.id, client.secret), await tokenStatus(client.id, fresh)]).toEqual([401, 200]);
    expect((await json(['client', 'show', client.id]))['previous_valid_until']).toBeNull();
  });

  it('ends the old secret at once with --overlap 0, and at the end of a short one', async () => {
    const client = await newClient('no-overlap');
    const none = await json(['client', 'secret', 'rotate', client.id, '--overlap', '0']);
    expect(none).toEqual({ client_id: client.id, client_secret: expect.any(String), previous_valid_until: null });
    expect([
      await tokenStatus(client.id, client.secret),
      await tokenStatus(client.id, String(none['client_secret'])),
    ]).toEqual([401, 200]);

    const from = clock.now();
    const short = await json(['client', 'secret', 'rotate', client.id, '--overlap', '1h30m']);
    expect(short['previous_valid_until']).toBe(iso(from + 90 * 60_000));
    expect(await tokenStatus(client.id, String(none['client_secret']))).toBe(200);
    clock.set(from + 90 * 60_000);
    expect(await tokenStatus(client.id, String(none['client_secret']))).toBe(401);
  });

  it('never keeps more than two secrets: a second rotation ends the first secret at once', async () => {
    const client = await newClient('twice');
    const second = String((await json(['client', 'secret', 'rotate', client.id, '--overlap', '2h']))['client_secret']);
    const third = String((await json(['client', 'secret', 'rotate', client.id, '--overlap', '2h']))['client_secret']);
    expect([
      await tokenStatus(client.id, client.secret),
      await tokenStatus(client.id, second),
      await tokenStatus(client.id, third),
    ]).toEqual([401, 200, 200]);
  });

  it('retires the previous secret now, answers a retire with none the same, and leaves issued tokens alone', async () => {
    const client = await newClient('retired');
    const token = await fetch(`${t.upstream.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.id,
        client_secret: client.secret,
      }),
    }).then(async (res) => String(((await res.json()) as Json)['access_token']));
    await json(['client', 'secret', 'rotate', client.id, '--overlap', '30d']);
    expect(await tokenStatus(client.id, client.secret)).toBe(200);
    const retired = await runCli(['admin', 'client', 'secret', 'retire', client.id, '--json'], env);
    expect(retired).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ client_id: client.id, previous_valid_until: null })}\n`,
      stderr: '',
    });
    expect(await tokenStatus(client.id, client.secret)).toBe(401);
    // Nothing left to retire: the same answer, so a retried retire is no failure.
    expect(await json(['client', 'secret', 'retire', client.id])).toEqual({
      client_id: client.id,
      previous_valid_until: null,
    });
    const call = await fetch(`${t.upstream.url}${PHONE}`, { headers: { authorization: `Bearer ${token}` } });
    await call.body?.cancel();
    expect(call.status).toBe(200);

    const activity = (await t.admin('GET', `/accounts/${accountId}/activity`)).body as Json[];
    const mine = activity.filter((e) => e['target'] === client.id).map((e) => e['action']);
    expect(mine.slice(0, 3)).toEqual(['client.secret_retire', 'client.secret_retire', 'client.secret_rotate']);
  });

  it('prints the readable lines without --json', async () => {
    const client = await newClient('readable');
    const rotated = await runCli(['admin', 'client', 'secret', 'rotate', client.id, '--overlap', '0'], env);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(/^client_id: +cli_\S+\nclient_secret: +\S{43}\n\nThe new secret is shown only now/);
    expect(rotated.stdout).toContain('The previous secret no longer works.');
    const retired = await runCli(['admin', 'client', 'secret', 'retire', client.id], env);
    expect(retired).toEqual({
      code: 0,
      stdout: `client ${client.id}: only its current secret works now\n`,
      stderr: '',
    });
  });

  it('refuses a bad overlap, one over 30 days, an unknown client and a private_key_jwt client', async () => {
    const client = await newClient('refusals');
    const fails = (args: string[]) => runCli(['admin', ...args], env);
    for (const bad of ['abc', '+1h', '1.5h', '24H', '1m1h', '', ' 1h', `${'1'.repeat(40)}s`]) {
      const result = await fails(['client', 'secret', 'rotate', client.id, '--overlap', bad]);
      expect({ bad, code: result.code, stdout: result.stdout }).toEqual({ bad, code: 1, stdout: '' });
      expect(result.stderr).toContain('overlap: expected a duration such as 24h');
    }
    const long = await fails(['client', 'secret', 'rotate', client.id, '--overlap', '30d1s']);
    expect(long).toMatchObject({ code: 1, stdout: '' });
    expect(long.stderr).toContain('overlap: at most 30 days (30d), not "30d1s"');
    // The most there is, and the secret still works.
    expect((await json(['client', 'secret', 'rotate', client.id, '--overlap', '720h']))['previous_valid_until']).toBe(
      iso(clock.now() + 720 * HOUR),
    );
    expect(await tokenStatus(client.id, client.secret)).toBe(200);

    for (const verb of [['secret', 'rotate'], ['secret', 'retire'], ['show']]) {
      const unknown = await fails(['client', ...verb, 'cli_doesnotexist0000000000']);
      expect(unknown).toMatchObject({ code: 1, stdout: '' });
      expect(unknown.stderr).toContain('client "cli_doesnotexist0000000000" does not exist');
    }
    const missing = await fails(['client', 'secret', 'rotate']);
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toContain('expected exactly one client id');

    const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
    const file = join(t.dataDir, 'keys.json');
    await writeFile(file, JSON.stringify({ keys: [{ ...jwk, kid: 'k1' }] }));
    const keyed = await json([
      'client',
      'create',
      '--project',
      projectId,
      '--name',
      'keyed',
      '--scopes',
      'phone',
      '--auth',
      'private_key_jwt',
      '--jwks',
      file,
    ]);
    for (const verb of ['rotate', 'retire']) {
      const refused = await fails(['client', 'secret', verb, String(keyed['client_id'])]);
      expect(refused).toMatchObject({ code: 1, stdout: '' });
      expect(refused.stderr).toContain('client authenticates with private_key_jwt: it has no secret to rotate');
    }
  });

  it('answers the admin API’s refusals with the documented statuses and codes', async () => {
    const client = await newClient('api-refusals');
    const rotate = (id: string, body: unknown) => t.admin('POST', `/clients/${id}/secret/rotate`, body);
    expect(await rotate(client.id, { overlap: 3600 })).toMatchObject({
      status: 400,
      body: { error_code: '1000', message: 'overlap: must be a string such as "24h"' },
    });
    expect(await rotate(client.id, { overlap: '31d' })).toMatchObject({
      status: 400,
      body: { error_code: '1000', message: 'overlap: at most 30 days (30d), not "31d"' },
    });
    expect(await rotate(client.id, '[]')).toMatchObject({ status: 400, body: { error_code: '1000' } });
    expect(await rotate('cli_doesnotexist0000000000', {})).toMatchObject({
      status: 404,
      body: { error_code: '1011' },
    });
    expect(await t.admin('POST', '/apikeys/key_doesnotexist00000000000/secret/retire')).toMatchObject({
      status: 404,
      body: { error_code: '1011' },
    });
    // Nothing was changed by any refusal: the secret is still the only one.
    expect((await t.admin('GET', `/clients/${client.id}`)).body).toMatchObject({ previous_valid_until: null });
    expect(await tokenStatus(client.id, client.secret)).toBe(200);
  });

  it('rotates an API key: both secrets work on the validation API until the overlap ends', async () => {
    const created = await json(['apikey', 'create', '--project', projectId]);
    const key = String(created['key']);
    const old = String(created['secret']);
    const keyCall = async (secret: string) => {
      const res = await fetch(`${t.upstream.url}${PHONE}&key=${encodeURIComponent(key)}`, {
        headers: { authorization: secret },
      });
      return { status: res.status, code: ((await res.json()) as Json)['error_code'] };
    };
    const from = clock.now();
    const rotated = await json(['apikey', 'secret', 'rotate', key, '--overlap', '2s']);
    expect(Object.keys(rotated)).toEqual(['key', 'secret', 'previous_valid_until']);
    expect(rotated).toEqual({ key, secret: expect.any(String), previous_valid_until: iso(from + 2000) });
    const fresh = String(rotated['secret']);
    expect([await keyCall(old), await keyCall(fresh)]).toEqual([
      { status: 200, code: undefined },
      { status: 200, code: undefined },
    ]);
    clock.set(from + 2000);
    expect([await keyCall(old), await keyCall(fresh)]).toEqual([
      { status: 401, code: '1006' },
      { status: 200, code: undefined },
    ]);
    const bad = await runCli(['admin', 'apikey', 'secret', 'rotate', key, '--overlap', '31d'], env);
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toContain('overlap: at most 30 days');
    const unknown = await runCli(['admin', 'apikey', 'secret', 'rotate', 'key_doesnotexist00000000000'], env);
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toContain('does not exist');
    const activity = (await t.admin('GET', `/accounts/${accountId}/activity`)).body as Json[];
    expect(activity.find((e) => e['target'] === key)).toMatchObject({
      action: 'api_key.secret_rotate',
      actor: 'operator',
    });
  });
});
