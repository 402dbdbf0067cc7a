import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '#store';
import { type Harness, startHarness } from './harness.ts';

const PHONE = '/api/phone/v1/verification';

/** Counts the store lookups the authenticator makes, to show what the 1 s cache saves. */
const lookups = { projects: 0, apiKeys: 0 };
function counting(store: Store): Store {
  return Object.assign(Object.create(store) as Store, {
    getProject: (id: string) => {
      lookups.projects += 1;
      return store.getProject(id);
    },
    getApiKey: (key: string) => {
      lookups.apiKeys += 1;
      return store.getApiKey(key);
    },
  });
}

let h: Harness;
let cred: { projectId: string; key: string; secret: string };
beforeAll(async () => {
  h = await startHarness({ storeOverride: counting });
  cred = await h.projectWithKey();
});
afterAll(async () => {
  await h.close();
});

describe('store lookups', () => {
  it('asks the store once per second for a burst of calls, by bearer or by key', async () => {
    const token = await h.token(cred.projectId, ['phone']);
    lookups.projects = 0;
    lookups.apiKeys = 0;
    for (let i = 0; i < 20; i++) {
      expect((await h.call(PHONE, {}, `Bearer ${token}`)).status).toBe(200);
      expect((await h.call(PHONE, { key: cred.key }, cred.secret)).status).toBe(200);
    }
    expect(lookups).toEqual({ projects: 1, apiKeys: 1 });
    h.clock.advance(1001);
    await h.call(PHONE, { key: cred.key }, cred.secret);
    expect(lookups).toEqual({ projects: 2, apiKeys: 2 });
  });

  it('answers 1025 for a previously accepted token on the very next call after the deletion: the store announces it and the cached project is dropped', async () => {
    const project = await h.store.createProject({ name: 'short-lived', plan: 'business' });
    const token = await h.token(project.id, ['phone']);
    expect((await h.call(PHONE, {}, `Bearer ${token}`)).status).toBe(200);
    await h.store.deleteProject(project.id);
    const res = await h.call(PHONE, {}, `Bearer ${token}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Project not found for bearer token', error_code: '1025', success: false });
  });

  it('answers 1025 on the very next call when the project cache is disabled', async () => {
    const h0 = await startHarness({ cacheTtlMs: 0, sharedStore: h.store });
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
    const hf = await startHarness({ storeOverride: failing, sharedStore: h.store });
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
