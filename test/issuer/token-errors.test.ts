import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '#test/fake-clock.ts';
import { type Harness, postForm, startHarness, startHarnessWithClient } from './harness.ts';

const clock = createFakeClock(Date.now());
let h: Harness;
let id: string;
let secret: string;

beforeAll(async () => {
  ({ h, id, secret } = await startHarnessWithClient(clock, ['address', 'email']));
});
afterAll(() => h.close());
// Each test starts with fresh brute-force windows (they are per minute on the injected clock).
beforeEach(() => clock.advanceSec(61));

const creds = () => ({ grant_type: 'client_credentials', client_id: id, client_secret: secret });

function expectOAuthError(res: Awaited<ReturnType<typeof postForm>>, status: number, error: string) {
  expect(res.status).toBe(status);
  expect(res.json).toEqual({ error, error_description: expect.any(String) });
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(JSON.stringify(res.json)).not.toContain(secret);
}

describe('request shape', () => {
  it('refuses a JSON body with 400 invalid_request', async () => {
    expectOAuthError(
      await postForm(h.url, JSON.stringify(creds()), { contentType: 'application/json' }),
      400,
      'invalid_request',
    );
  });

  it('refuses a body without a content type with 400 invalid_request', async () => {
    const res = await fetch(`${h.url}/oauth/token`, {
      method: 'POST',
      body: new Blob([new URLSearchParams(creds()).toString()]),
    });
    expect(res.status).toBe(400);
  });

  it('accepts a mixed-case form media type with a charset parameter', async () => {
    const res = await postForm(h.url, creds(), { contentType: 'Application/X-WWW-Form-URLEncoded; charset=UTF-8' });
    expect(res.status).toBe(200);
  });

  it('answers other methods with 405 and Allow: POST, never a token', async () => {
    const res = await fetch(`${h.url}/oauth/token?${new URLSearchParams(creds())}`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('does not honour credentials placed in the query string', async () => {
    const res = await postForm(h.url, 'grant_type=client_credentials', {
      path: `/oauth/token?${new URLSearchParams(creds())}`,
    });
    expectOAuthError(res, 401, 'invalid_client');
  });

  it('refuses any repeated parameter, even with equal values', async () => {
    for (const name of ['grant_type', 'client_id', 'scope', 'expires_in']) {
      const body = `${new URLSearchParams({ ...creds(), scope: 'email', expires_in: '60' })}&${name}=${name === 'client_id' ? id : name === 'scope' ? 'email' : name === 'expires_in' ? '60' : 'client_credentials'}`;
      expectOAuthError(await postForm(h.url, body), 400, 'invalid_request');
    }
  });

  it('treats empty parameters as absent and ignores unknown ones', async () => {
    const res = await postForm(h.url, { ...creds(), scope: '', expires_in: '', audience: 'x', foo: 'bar' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ scope: 'address email', expires_in: 900 });
  });

  it('ignores an unrecognized parameter sent more than once, such as RFC 8707 resource', async () => {
    const body = `${new URLSearchParams(creds())}&resource=https%3A%2F%2Fa.example&resource=https%3A%2F%2Fb.example`;
    const res = await postForm(h.url, body);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ token_type: 'Bearer', scope: 'address email', expires_in: 900 });
  });

  it('refuses malformed percent-encoding, NUL bytes and invalid UTF-8 with 400', async () => {
    const base = new URLSearchParams(creds()).toString();
    expectOAuthError(await postForm(h.url, `${base}&scope=%ZZ`), 400, 'invalid_request');
    expectOAuthError(await postForm(h.url, `${base}&scope=email%00`), 400, 'invalid_request');
    expectOAuthError(await postForm(h.url, `${base}&scope=%FF`), 400, 'invalid_request');
  });

  it('refuses a body over 8 KiB with 413 and no token', async () => {
    const res = await postForm(h.url, { ...creds(), pad: 'x'.repeat(9000) });
    expect(res.status).toBe(413);
    expect(res.json['access_token']).toBeUndefined();
  });
});

describe('client authentication', () => {
  it('accepts HTTP Basic whose id and secret are percent-encoded before base64', async () => {
    const pct = (s: string) => [...s].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const authorization = `basic ${Buffer.from(`${pct(id)}:${pct(secret)}`).toString('base64')}`;
    const res = await postForm(h.url, { grant_type: 'client_credentials' }, { authorization });
    expect(res.status).toBe(200);
  });

  it('decodes a raw + in Basic credentials as a space, so an unencoded secret with + fails', async () => {
    const authorization = `Basic ${Buffer.from(`${id}:${secret}+`).toString('base64')}`;
    const res = await postForm(h.url, { grant_type: 'client_credentials' }, { authorization });
    expectOAuthError(res, 401, 'invalid_client');
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="tokengate"');
  });

  it('refuses Basic plus a client_secret in the body with 400 invalid_request, even when both are right', async () => {
    expectOAuthError(await postForm(h.url, creds(), { basic: [id, secret] }), 400, 'invalid_request');
  });

  it('accepts Basic with the same client_id in the body and refuses a different one', async () => {
    expect(
      (await postForm(h.url, { grant_type: 'client_credentials', client_id: id }, { basic: [id, secret] })).status,
    ).toBe(200);
    expectOAuthError(
      await postForm(h.url, { grant_type: 'client_credentials', client_id: 'cli_other' }, { basic: [id, secret] }),
      400,
      'invalid_request',
    );
  });

  it('refuses malformed Basic credentials with 400 invalid_request', async () => {
    for (const authorization of ['Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`, 'Basic a b']) {
      expectOAuthError(
        await postForm(h.url, { grant_type: 'client_credentials' }, { authorization }),
        400,
        'invalid_request',
      );
    }
  });

  it('answers another scheme, no credentials, unknown id, wrong secret and a disabled client with the same 401', async () => {
    const { client, secret: s2 } = await h.client(['phone']);
    await h.issuer.setClientEnabled(client.clientId, false);
    const cases = [
      postForm(h.url, { grant_type: 'client_credentials' }, { authorization: 'Bearer abc' }),
      postForm(h.url, { grant_type: 'client_credentials' }),
      postForm(h.url, { grant_type: 'client_credentials', client_id: id }),
      postForm(h.url, { ...creds(), client_id: 'cli_unknown' }),
      postForm(h.url, { ...creds(), client_secret: 'wrong' }),
      postForm(h.url, { ...creds(), client_id: client.clientId, client_secret: s2 }),
    ];
    const answers = await Promise.all(cases);
    for (const res of answers) {
      expectOAuthError(res, 401, 'invalid_client');
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="tokengate"');
    }
    // Unknown id, wrong secret and disabled client are indistinguishable (no client enumeration).
    expect(new Set(answers.slice(1).map((r) => JSON.stringify(r.json))).size).toBe(1);
  });

  it('lets a re-enabled client obtain tokens again', async () => {
    const { client, secret: s2 } = await h.client(['phone']);
    await h.issuer.setClientEnabled(client.clientId, false);
    await h.issuer.setClientEnabled(client.clientId, true);
    expect((await postForm(h.url, { ...creds(), client_id: client.clientId, client_secret: s2 })).status).toBe(200);
  });
});

describe('grant, plan, scope and lifetime rules', () => {
  it('refuses a missing grant_type with invalid_request and any other grant with unsupported_grant_type', async () => {
    const { grant_type: _, ...noGrant } = creds();
    expectOAuthError(await postForm(h.url, noGrant), 400, 'invalid_request');
    for (const grant of [
      'password',
      'authorization_code',
      'refresh_token',
      'CLIENT_CREDENTIALS',
      'client_credentials ',
    ]) {
      expectOAuthError(await postForm(h.url, { ...creds(), grant_type: grant }), 400, 'unsupported_grant_type');
    }
  });

  it('refuses a client whose project is not on a business or enterprise plan with unauthorized_client', async () => {
    const store = h.store;
    const downgraded = new Proxy(store, {
      get(target, name, receiver) {
        if (name === 'getProject') return async (pid: string) => ({ ...(await target.getProject(pid)), plan: 'free' });
        const value: unknown = Reflect.get(target, name, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const other = await startHarness({ store: downgraded, clock });
    try {
      expectOAuthError(await postForm(other.url, creds()), 400, 'unauthorized_client');
    } finally {
      await other.close();
    }
  });

  it('refuses unknown, unpermitted, wrongly cased and ill-formed scopes with invalid_scope, echoing none of them', async () => {
    for (const scope of [
      'profile',
      'phone',
      'email phone',
      'Email',
      'email "x"',
      'email\\',
      'émail',
      'email\nphone',
      'email\taddress',
    ]) {
      const res = await postForm(h.url, { ...creds(), scope });
      expectOAuthError(res, 400, 'invalid_scope');
      expect(res.json['error_description']).toMatch(/^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/);
    }
  });

  it('collapses duplicate scopes, tolerates extra spaces and grants every permitted scope when omitted', async () => {
    expect((await postForm(h.url, { ...creds(), scope: 'email email' })).json['scope']).toBe('email');
    expect((await postForm(h.url, { ...creds(), scope: ' email  address ' })).json['scope']).toBe('address email');
    expect((await postForm(h.url, creds())).json['scope']).toBe('address email');
  });

  it('grants expires_in from 1 to 3600 as asked and 900 by default', async () => {
    for (const [asked, granted] of [
      ['1', 1],
      ['3600', 3600],
      [undefined, 900],
    ] as const) {
      const res = await postForm(h.url, asked ? { ...creds(), expires_in: asked } : creds());
      expect(res.json['expires_in']).toBe(granted);
      expect(res.json['expires_in_capped']).toBeUndefined();
    }
  });

  it('caps expires_in above 3600 at 3600 and says so with expires_in_capped', async () => {
    for (const asked of ['3601', '86400', '99999999999999999999']) {
      const res = await postForm(h.url, { ...creds(), expires_in: asked });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ expires_in: 3600, expires_in_capped: true });
    }
  });

  it('refuses an expires_in that is not a positive decimal integer with invalid_request', async () => {
    for (const asked of ['0', '-1', '1.5', '1e3', '0x10', ' 60', '60 ', 'abc', '060', '+60']) {
      expectOAuthError(await postForm(h.url, { ...creds(), expires_in: asked }), 400, 'invalid_request');
    }
  });
});

describe('error precedence', () => {
  it('authenticates the client before judging grant_type', async () => {
    expectOAuthError(
      await postForm(h.url, { ...creds(), client_secret: 'wrong', grant_type: 'password' }),
      401,
      'invalid_client',
    );
  });

  it('judges grant_type before scope, and scope before expires_in', async () => {
    expectOAuthError(
      await postForm(h.url, { ...creds(), grant_type: 'password', scope: 'nope' }),
      400,
      'unsupported_grant_type',
    );
    expectOAuthError(await postForm(h.url, { ...creds(), scope: 'nope', expires_in: 'abc' }), 400, 'invalid_scope');
  });

  it('rejects a repeated parameter before authenticating', async () => {
    const body = `${new URLSearchParams({ ...creds(), client_secret: 'wrong' })}&grant_type=client_credentials`;
    expectOAuthError(await postForm(h.url, body), 400, 'invalid_request');
  });
});
