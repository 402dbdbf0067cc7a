import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROUTES } from '#upstream';
import { clientCredentialsToken, startTestUpstream, type TestUpstream } from './upstream-fixture.ts';

type Json = Record<string, unknown>;

describe('admin API over HTTP', () => {
  let t: TestUpstream;
  beforeAll(async () => {
    t = await startTestUpstream();
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const createProject = async (plan: string, name = `p-${plan}`) => {
    const res = await t.admin('POST', '/projects', { name, plan });
    expect(res.status).toBe(201);
    return res.body as { id: string; name: string; plan: string };
  };

  it('refuses every route without the admin token, or with a wrong one, with a 401 JSON body', async () => {
    for (const route of ADMIN_ROUTES) {
      const path = route.path.replace(':id', 'x');
      for (const token of ['', 'wrong-token']) {
        const res = await t.admin(route.method, path, undefined, token);
        expect(res.status, `${route.method} ${path}`).toBe(401);
        expect(res.body).toEqual({
          message: expect.stringContaining('admin token'),
          error_code: '1006',
          success: false,
        });
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }
    }
  });

  it('creates, lists, reads and deletes a project', async () => {
    const project = await createProject('business', 'Acme');
    // In a new account of its own, whose plan it shows.
    expect(project).toEqual({
      id: expect.any(String),
      name: 'Acme',
      plan: 'business',
      account_id: expect.stringMatching(/^acc_/),
    });
    const one = await t.admin('GET', `/projects/${project.id}`);
    expect(one.body).toMatchObject({ ...project, created_at: expect.any(String) });
    const list = await t.admin('GET', '/projects');
    expect(list.body).toEqual(expect.arrayContaining([expect.objectContaining(project)]));
    const deleted = await t.admin('DELETE', `/projects/${project.id}`);
    expect(deleted).toMatchObject({ status: 200, body: { id: project.id, deleted: true } });
    expect((await t.admin('GET', `/projects/${project.id}`)).status).toBe(404);
  });

  it('answers 400 with a message naming the field for bad project input', async () => {
    const cases: Array<[unknown, string]> = [
      [{ plan: 'free' }, 'name: required'],
      [{ name: '  ', plan: 'free' }, 'name: required'],
      [{ name: 'x'.repeat(101), plan: 'free' }, 'name: at most 100 characters'],
      [{ name: 'a\u0000b', plan: 'free' }, 'name: must not contain control characters'],
      [{ name: 'a\u0085b', plan: 'free' }, 'name: must not contain control characters'],
      [{ name: 'a\u009b31mb', plan: 'free' }, 'name: must not contain control characters'],
      ['{"name":"a\\ud800b","plan":"free"}', 'name: must be valid Unicode text'],
      [{ name: 'invoice\u202Egnp.exe', plan: 'free' }, 'name: must not contain bidirectional controls'],
      [{ name: 'a\u2066b\u2069', plan: 'free' }, 'name: must not contain bidirectional controls'],
      [{ name: 'n', plan: 'gold' }, 'plan: required, one of free, business, enterprise'],
      ['{not json', 'body must be valid JSON'],
      [[1, 2], 'body must be a JSON object'],
    ];
    for (const [body, message] of cases) {
      const res = await t.admin('POST', '/projects', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ message: expect.stringContaining(message), error_code: '1000', success: false });
    }
  });

  it('keeps a name with emoji sequences (joiners, variation selectors) as sent', async () => {
    const name = 'Team \u{1F469}\u200D\u{1F4BB} \u2764\uFE0F';
    expect(await createProject('free', name)).toMatchObject({ name });
  });

  it('refuses an oversized body with 413', async () => {
    const res = await t.admin('POST', '/projects', { name: 'n', plan: 'free', pad: 'x'.repeat(20_000) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error_code: '1043', success: false });
  });

  it('answers 404 naming the id for unknown projects and clients', async () => {
    const requests: Array<[string, string, unknown]> = [
      ['GET', '/projects/prj_nope', undefined],
      ['DELETE', '/projects/prj_nope', undefined],
      ['GET', '/projects/prj_nope/clients', undefined],
      ['POST', '/projects/prj_nope/clients', { name: 'c', scopes: ['address'] }],
      ['POST', '/projects/prj_nope/apikeys', undefined],
      ['POST', '/clients/cli_nope/disable', undefined],
      ['POST', '/clients/cli_nope/enable', undefined],
      ['POST', '/apikeys/key_nope/disable', undefined],
      ['POST', '/apikeys/key_nope/enable', undefined],
    ];
    for (const [method, path, body] of requests) {
      const res = await t.admin(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({
        message: expect.stringMatching(/(project|client|api key) "(prj|cli|key)_nope" does not exist/),
        error_code: '1011',
        success: false,
      });
    }
  });

  it('answers 404 as for an unknown id to an id no id can be (a NUL byte PostgreSQL refuses), logging no error', async () => {
    const logged = t.logs().length;
    for (const id of ['%00', 'prj_%00x', '%C3%A9', 'prj%20x']) {
      const requests: Array<[string, string, unknown]> = [
        ['GET', `/projects/${id}`, undefined],
        ['DELETE', `/projects/${id}`, undefined],
        ['GET', `/projects/${id}/clients`, undefined],
        ['POST', `/projects/${id}/clients`, { name: 'c', scopes: ['address'] }],
        ['POST', `/projects/${id}/apikeys`, undefined],
        ['POST', `/clients/${id}/disable`, undefined],
        ['POST', `/clients/${id}/enable`, undefined],
        ['POST', `/apikeys/${id}/disable`, undefined],
        ['POST', `/apikeys/${id}/enable`, undefined],
      ];
      for (const [method, path, body] of requests) {
        const res = await t.admin(method, path, body);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body).toEqual({
          message: expect.stringMatching(/^(project|client|api key) ".*" does not exist$/),
          error_code: '1011',
          success: false,
        });
      }
    }
    expect(t.logs().slice(logged)).not.toContain('"level":50');
  });

  it('answers unknown admin paths with a JSON 404 and wrong methods with 405 and Allow', async () => {
    const missing = await t.admin('GET', '/nothing-here');
    expect(missing).toMatchObject({ status: 404, body: { error_code: '1041', success: false } });
    const wrong = await t.admin('PUT', '/projects');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST');
  });

  it('creates a client once with its secret, and never shows the secret again', async () => {
    const project = await createProject('enterprise');
    const created = await t.admin('POST', `/projects/${project.id}/clients`, {
      name: 'backend',
      scopes: ['phone', 'address', 'phone'],
    });
    expect(created.status).toBe(201);
    const client = created.body as Json;
    expect(Object.keys(client)).toEqual([
      'client_id',
      'client_secret',
      'name',
      'scopes',
      'enabled',
      'auth',
      'require_dpop',
      'introspect',
    ]);
    expect(client).toMatchObject({ name: 'backend', scopes: ['address', 'phone'], enabled: true });
    expect(String(client['client_secret']).length).toBeGreaterThanOrEqual(43);
    const list = await t.admin('GET', `/projects/${project.id}/clients`);
    expect(list.body).toEqual([
      {
        client_id: client['client_id'],
        name: 'backend',
        scopes: ['address', 'phone'],
        enabled: true,
        auth: 'client_secret',
        require_dpop: false,
        introspect: false,
      },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(String(client['client_secret']));
  });

  it('refuses a client for a free project with 409 and says which plans may have one', async () => {
    const project = await createProject('free');
    const res = await t.admin('POST', `/projects/${project.id}/clients`, { name: 'c', scopes: ['email'] });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      message: expect.stringContaining('only business and enterprise plans'),
      success: false,
    });
  });

  it('answers 400 for a client without a name or with unknown scopes', async () => {
    const project = await createProject('business');
    for (const body of [
      { scopes: ['email'] },
      { name: 'c', scopes: [] },
      { name: 'c', scopes: ['adress'] },
      { name: 'c', scopes: 'email' },
    ]) {
      const res = await t.admin('POST', `/projects/${project.id}/clients`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('answers 400 for a scope that is an object whose toString is not a function', async () => {
    const project = await createProject('business');
    const res = await t.admin('POST', `/projects/${project.id}/clients`, { name: 'c', scopes: [{ toString: 0 }] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: expect.stringContaining('scopes: unknown scope (an object)') });
  });

  it('disables and re-enables a client; a disabled client gets no token', async () => {
    const project = await createProject('business');
    const client = (await t.admin('POST', `/projects/${project.id}/clients`, { name: 'c', scopes: ['email'] }))
      .body as Json;
    const id = String(client['client_id']);
    const disabled = await t.admin('POST', `/clients/${id}/disable`);
    expect(disabled).toMatchObject({ status: 200, body: { client_id: id, enabled: false } });
    await expect(clientCredentialsToken(t.upstream.url, id, String(client['client_secret']))).rejects.toThrow(/401/);
    const enabled = await t.admin('POST', `/clients/${id}/enable`);
    expect(enabled).toMatchObject({ status: 200, body: { client_id: id, enabled: true } });
    await expect(clientCredentialsToken(t.upstream.url, id, String(client['client_secret']))).resolves.toMatch(/^ey/);
  });

  it('revokes a token by JWT and by jti, and the revocation reaches the gateway feed', async () => {
    const project = await createProject('business');
    const client = (await t.admin('POST', `/projects/${project.id}/clients`, { name: 'c', scopes: ['address'] }))
      .body as Json;
    const token = await clientCredentialsToken(
      t.upstream.url,
      String(client['client_id']),
      String(client['client_secret']),
    );
    const jti = (JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { jti: string }).jti;
    expect(await t.admin('POST', '/tokens/revoke', { token })).toMatchObject({ status: 200, body: { revoked: true } });
    expect(await t.admin('POST', '/tokens/revoke', { token: jti })).toMatchObject({
      status: 200,
      body: { revoked: true },
    });
    const feed = await fetch(`${t.upstream.url}/internal/revocations?cursor=0`, {
      headers: { authorization: `Bearer ${t.upstream.feedToken.value}` },
    });
    expect(feed.status).toBe(200);
    expect(JSON.stringify(await feed.json())).toContain(jti);
    expect((await t.admin('POST', '/tokens/revoke', {})).status).toBe(400);
  });

  it('lists signing keys and rotates them, the new key becoming active', async () => {
    const before = (await t.admin('GET', '/keys')).body as Json[];
    expect(before.some((key) => key['status'] === 'active')).toBe(true);
    for (const key of before)
      expect(Object.keys(key)).toEqual([
        'kid',
        'status',
        'alg',
        'created_at',
        'activated_at',
        'retired_at',
        'remove_after',
        'promotable_at',
      ]);
    const rotated = await t.admin('POST', '/keys/rotate');
    expect(rotated).toMatchObject({ status: 200, body: { kid: expect.any(String) } });
    const after = (await t.admin('GET', '/keys')).body as Json[];
    expect(after.find((key) => key['kid'] === (rotated.body as Json)['kid'])).toMatchObject({ status: 'active' });
  });

  it('refuses a rotation right after another with 409 and when it can run; {"now": true} rotates at once', async () => {
    await t.admin('POST', '/keys/rotate', { now: true });
    const next = ((await t.admin('GET', '/keys')).body as Json[]).find((key) => key['status'] === 'next');
    const refused = await t.admin('POST', '/keys/rotate');
    expect(refused).toMatchObject({
      status: 409,
      body: {
        error_code: '1000',
        success: false,
        message: expect.stringContaining('rotate at or after'),
        not_before: next?.['promotable_at'],
        retry_after_sec: expect.any(Number),
      },
    });
    expect((refused.body as Json)['retry_after_sec']).toBeGreaterThan(300);
    expect((await t.admin('POST', '/keys/rotate', { now: 'yes' })).status).toBe(400);
    const emergency = await t.admin('POST', '/keys/rotate', { now: true });
    expect(emergency).toMatchObject({ status: 200, body: { kid: next?.['kid'] } });
  });

  it('creates an API key for a project and returns its secret once', async () => {
    const project = await createProject('free');
    const res = await t.admin('POST', `/projects/${project.id}/apikeys`);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ key: expect.any(String), secret: expect.any(String) });
  });

  it('disables an API key, whose calls are then refused with 1001, and enables it again, answering {key, enabled}', async () => {
    const project = await createProject('free');
    const { key, secret } = (await t.admin('POST', `/projects/${project.id}/apikeys`)).body as Record<string, string>;
    const call = async () => {
      const query = new URLSearchParams({ phone_number: '0412345678', default_country_code: 'AU', key: key ?? '' });
      const res = await fetch(`${t.upstream.url}/api/phone/v1/verification?${query}`, {
        headers: { authorization: secret ?? '' },
      });
      return { status: res.status, code: ((await res.json()) as Json)['error_code'] };
    };
    expect((await call()).status).toBe(200);
    expect(await t.admin('POST', `/apikeys/${key}/disable`)).toMatchObject({
      status: 200,
      body: { key, enabled: false },
    });
    expect(await call()).toEqual({ status: 401, code: '1001' });
    expect(await t.admin('POST', `/apikeys/${key}/disable`)).toMatchObject({ status: 200, body: { enabled: false } });
    expect(await t.admin('POST', `/apikeys/${key}/enable`)).toMatchObject({
      status: 200,
      body: { key, enabled: true },
    });
    expect((await call()).status).toBe(200);
  });

  it('reloads the address data set on request (after an import under DATA_DIR)', async () => {
    expect(await t.admin('POST', '/address/reload')).toMatchObject({ status: 200, body: { reloaded: true } });
  });

  it('logs each change with who made it: the operator, from the address the request came from', async () => {
    const project = await createProject('free', 'logged');
    const line = t
      .logs()
      .split('\n')
      .find((entry) => entry.includes('admin: project created') && entry.includes(project.id));
    expect(JSON.parse(line ?? '{}')).toMatchObject({
      actor: { kind: 'operator', address: expect.stringContaining('127.0.0.1') },
      projectId: project.id,
      plan: 'free',
    });
  });

  it('never writes the admin token or a secret it returned into the log', async () => {
    const project = await createProject('business');
    const client = (await t.admin('POST', `/projects/${project.id}/clients`, { name: 'c', scopes: ['email'] }))
      .body as Json;
    const apiKey = (await t.admin('POST', `/projects/${project.id}/apikeys`)).body as Json;
    const logs = t.logs();
    expect(logs).toContain('admin: client created');
    for (const secret of [t.adminToken, client['client_secret'], apiKey['secret']])
      expect(logs).not.toContain(String(secret));
  });
});
