import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '#store';
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

describe('deleted projects', () => {
  it('answers 1025 for a previously accepted token once the 1 s project cache TTL has passed since the deletion', async () => {
    const project = await h.store.createProject({ name: 'short-lived', plan: 'business' });
    const token = await h.token(project.id, ['phone']);
    expect((await h.call(PHONE, {}, `Bearer ${token}`)).status).toBe(200);
    await h.store.deleteProject(project.id);
    h.clock.advance(999);
    expect((await h.call(PHONE, {}, `Bearer ${token}`)).status).toBe(200);
    h.clock.advance(2);
    const res = await h.call(PHONE, {}, `Bearer ${token}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Project not found for bearer token', error_code: '1025', success: false });
  });

  it('answers 1025 on the very next call when the project cache is disabled', async () => {
    const h0 = await startHarness({ projectCacheTtlMs: 0 });
    try {
      const project = await h0.store.createProject({ name: 'p', plan: 'enterprise' });
      const token = await h0.token(project.id, ['phone']);
      expect((await h0.call(PHONE, {}, `Bearer ${token}`)).status).toBe(200);
      await h0.store.deleteProject(project.id);
      expect((await h0.call(PHONE, {}, `Bearer ${token}`)).body.error_code).toBe('1025');
    } finally {
      await h0.close();
    }
  });
});

describe('logs and failures', () => {
  it('never writes the key, the secret or the token to the log', async () => {
    const token = await h.token(cred.projectId, ['address']);
    await h.call(PHONE, { key: cred.key, secret: cred.secret });
    await h.call(PHONE, { key: cred.key }, cred.secret);
    await h.call(PHONE, { key: cred.key }, `${cred.secret}x`);
    await h.call(PHONE, { key: `${cred.key}x`, secret: cred.secret });
    await h.call(PHONE, { key: cred.key, secret: cred.secret }, `Bearer ${token}`);
    const text = h.logText();
    expect(text).toContain('api auth refused');
    for (const secretValue of [cred.key, cred.secret, token, token.split('.')[2] ?? token]) {
      expect(text).not.toContain(secretValue);
    }
  });

  it('answers 1099 (500) in the route body shape when the store fails, and logs why', async () => {
    const failing = (store: Store): Store =>
      Object.assign(Object.create(store) as Store, {
        getApiKey: () => Promise.reject(new Error('connection terminated')),
      });
    const hf = await startHarness({ storeOverride: failing });
    try {
      const res = await hf.call('/api/au/address/autocomplete', { key: 'key_x', secret: 's' });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ completions: [], message: 'Internal error', error_code: '1099', success: false });
      expect(hf.logText()).toContain('connection terminated');
    } finally {
      await hf.close();
    }
  });
});
