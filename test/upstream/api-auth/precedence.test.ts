import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.ts';

const PHONE = '/api/phone/v1/verification';

let h: Harness;
let cred: { projectId: string; key: string; secret: string };
beforeAll(async () => {
  h = await startHarness();
  cred = await h.projectWithKey();
});
afterAll(async () => {
  await h.close();
});

describe('bearer wins over key and secret', () => {
  it('uses a valid bearer token and ignores wrong key/secret parameters', async () => {
    const token = await h.token(cred.projectId, ['phone']);
    const res = await h.call(PHONE, { key: 'key_wrong', secret: 'wrong' }, `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body.via).toBe('bearer');
  });

  it('refuses an invalid bearer token even when valid key/secret parameters are present', async () => {
    const res = await h.call(PHONE, { key: cred.key, secret: cred.secret }, 'Bearer garbage');
    expect(res.status).toBe(401);
    expect(res.body.error_code).toBe('1024');
  });

  it('treats a raw secret that merely starts with "bearer" as a secret, not a token', async () => {
    const res = await h.call(PHONE, { key: cred.key }, 'bearerlike-secret');
    expect(res.body.error_code).toBe('1006');
  });
});
