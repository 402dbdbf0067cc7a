import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.ts';

const AUTOCOMPLETE = '/api/au/address/autocomplete';
const PHONE = '/api/phone/v1/verification';

let h: Harness;
let cred: { projectId: string; key: string; secret: string };
beforeAll(async () => {
  h = await startHarness();
  cred = await h.projectWithKey('free');
});
afterAll(async () => {
  await h.close();
});

describe('key and secret in the upstream', () => {
  it('accepts key and secret as query parameters, granting every scope of the plan', async () => {
    const res = await h.call(PHONE, { key: cred.key, secret: cred.secret });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ projectId: cred.projectId, via: 'key', scopes: ['address', 'phone', 'email'] });
  });

  it('accepts the secret as the raw Authorization header value with no scheme', async () => {
    const res = await h.call(AUTOCOMPLETE, { key: cred.key, q: 'x' }, cred.secret);
    expect(res.status).toBe(200);
    expect(res.body.via).toBe('key');
  });

  it('accepts the same secret sent both ways', async () => {
    expect((await h.call(PHONE, { key: cred.key, secret: cred.secret }, cred.secret)).status).toBe(200);
  });

  it('answers 1002 (401) when no key is given, with no credentials or only a secret', async () => {
    for (const [params, auth] of [
      [{}, undefined],
      [{ secret: cred.secret }, undefined],
      [{ key: '' }, cred.secret],
    ] as const) {
      const res = await h.call(PHONE, params, auth);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Key not provided', error_code: '1002', success: false });
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="tokengate"');
    }
  });

  it('answers 1004 (401) when the key comes without a secret', async () => {
    const res = await h.call(AUTOCOMPLETE, { key: cred.key, q: 'x' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ completions: [], message: 'Secret not provided', error_code: '1004', success: false });
  });

  it('answers 1001 (401) for a key that does not exist', async () => {
    const res = await h.call(PHONE, { key: 'key_doesnotexist0000000', secret: cred.secret });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Key not found', error_code: '1001', success: false });
  });

  it('answers 1001 (401) for a key no key can be (a NUL byte, a space, another script), as for an unknown one', async () => {
    for (const key of ['\u0000', 'key_\u0000x', 'key with space', 'clé']) {
      const res = await h.call(PHONE, { key, secret: cred.secret });
      expect({ key, status: res.status, body: res.body }).toEqual({
        key,
        status: 401,
        body: { message: 'Key not found', error_code: '1001', success: false },
      });
    }
  });

  it('answers 1006 (401) when the secret does not match the key', async () => {
    for (const secret of [
      cred.secret.slice(0, -1) + (cred.secret.endsWith('A') ? 'B' : 'A'),
      'short',
      cred.secret + 'x',
    ]) {
      const res = await h.call(PHONE, { key: cred.key }, secret);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Invalid credentials', error_code: '1006', success: false });
    }
  });

  it('answers 1000 (400) naming the problem for repeated, oversized or conflicting credentials', async () => {
    const cases: Array<[Record<string, string | string[]>, string | undefined, string]> = [
      [{ key: [cred.key, cred.key], secret: cred.secret }, undefined, 'Key must be given once'],
      [{ key: 'k'.repeat(129), secret: cred.secret }, undefined, 'Key is longer than 128 characters'],
      [{ key: cred.key, secret: [cred.secret, cred.secret] }, undefined, 'Secret must be given once'],
      [{ key: cred.key, secret: 's'.repeat(513) }, undefined, 'Secret is longer than 512 characters'],
      [
        { key: cred.key, secret: cred.secret },
        'other',
        'Secret was sent both as a parameter and in the Authorization header with different values',
      ],
    ];
    for (const [params, auth, message] of cases) {
      const res = await h.call(PHONE, params, auth);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message, error_code: '1000', success: false });
      expect(res.headers.get('www-authenticate')).toBeNull();
    }
  });

  it('answers 1001 (401) for a disabled key on the very next call, as for an unknown one, and accepts it again once enabled', async () => {
    const toggled = await h.projectWithKey();
    const call = () => h.call(PHONE, { key: toggled.key, secret: toggled.secret });
    expect((await call()).status).toBe(200);
    await h.store.setApiKeyEnabled(toggled.key, false);
    const refused = await call();
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ message: 'Key not found', error_code: '1001', success: false });
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="tokengate"');
    // A wrong secret still gets 1006: being disabled tells nobody without the secret anything more.
    expect((await h.call(PHONE, { key: toggled.key }, `${toggled.secret}x`)).body.error_code).toBe('1006');
    await h.store.setApiKeyEnabled(toggled.key, true);
    expect((await call()).status).toBe(200);
  });

  it('answers 1001 once the 1 s lookup cache has passed since the key’s project was deleted', async () => {
    const doomed = await h.projectWithKey();
    expect((await h.call(PHONE, { key: doomed.key, secret: doomed.secret })).status).toBe(200);
    await h.store.deleteProject(doomed.projectId);
    h.clock.advance(1001);
    const res = await h.call(PHONE, { key: doomed.key, secret: doomed.secret });
    expect(res.status).toBe(401);
    expect(res.body.error_code).toBe('1001');
  });
});

describe('bearer wins over key and secret', () => {
  let biz: { projectId: string; key: string; secret: string };
  beforeAll(async () => {
    biz = await h.projectWithKey('business');
  });

  it('uses a valid bearer token and ignores wrong key/secret parameters', async () => {
    const token = await h.token(biz.projectId, ['phone']);
    const res = await h.call(PHONE, { key: 'key_wrong', secret: 'wrong' }, `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body.via).toBe('bearer');
  });

  it('refuses an invalid bearer token even when valid key/secret parameters are present', async () => {
    const res = await h.call(PHONE, { key: biz.key, secret: biz.secret }, 'Bearer garbage');
    expect(res.status).toBe(401);
    expect(res.body.error_code).toBe('1024');
  });

  it('treats a raw secret that merely starts with "bearer" as a secret, not a token', async () => {
    const res = await h.call(PHONE, { key: biz.key }, 'bearerlike-secret');
    expect(res.body.error_code).toBe('1006');
  });
});
