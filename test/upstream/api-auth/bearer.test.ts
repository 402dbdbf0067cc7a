import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.ts';

const AUTOCOMPLETE = '/api/au/address/autocomplete';
const PHONE = '/api/phone/v1/verification';

let h: Harness;
let projectId: string;
beforeAll(async () => {
  h = await startHarness();
  projectId = (await h.store.createProject({ name: 'acme', plan: 'business' })).id;
});
afterAll(async () => {
  await h.close();
});

describe('bearer tokens in the upstream', () => {
  it('accepts a valid token holding the route scope and names its project', async () => {
    const res = await h.call(AUTOCOMPLETE, { q: '1 george' }, `Bearer ${await h.token(projectId, ['address'])}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ projectId, via: 'bearer', scopes: ['address'] });
  });

  it('accepts a valid token sent after more than one space (RFC 6750 §2.1: 1*SP)', async () => {
    const res = await h.call(AUTOCOMPLETE, { q: '1 george' }, `Bearer   ${await h.token(projectId, ['address'])}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ projectId, via: 'bearer', scopes: ['address'] });
  });

  it('answers 1026 (401) with an insufficient_scope challenge when the token lacks the route scope', async () => {
    const res = await h.call(PHONE, {}, `Bearer ${await h.token(projectId, ['address', 'email'])}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      message: 'Token does not have the required scope for this endpoint',
      error_code: '1026',
      success: false,
    });
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(res.headers.get('www-authenticate')).toContain('scope="phone"');
  });

  it('answers 1030 (401) naming the UTC expiry for an expired token', async () => {
    const res = await h.call(
      PHONE,
      {},
      `Bearer ${await h.kit.expiredToken(60, { scopes: ['phone'], claims: { project_id: projectId } })}`,
    );
    expect(res.status).toBe(401);
    expect(res.body.error_code).toBe('1030');
    expect(res.body.message).toMatch(/^Token expired at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('answers 1024 (401) for a token signed with a key the issuer does not hold', async () => {
    const res = await h.call(
      PHONE,
      {},
      `Bearer ${await h.kit.forgedToken({ scopes: ['phone'], claims: { project_id: projectId } })}`,
    );
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Invalid bearer token', error_code: '1024', success: false });
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('answers 1024 (401) for a malformed bearer value', async () => {
    for (const value of ['Bearer not.a.jwt', 'Bearer', 'Bearer  two-spaces']) {
      const res = await h.call(PHONE, {}, value);
      expect(res.status).toBe(401);
      expect(res.body.error_code).toBe('1024');
    }
  });

  it('regression (issue 17): answers 1024 (401), not 1099, to a header whose alg is {"toString":0}, and logs no token', async () => {
    const token = 'eyJhbGciOnsidG9TdHJpbmciOjB9fQ.e30.AA';
    const res = await h.call(PHONE, { phone_number: '1', default_country_code: 'AU' }, `Bearer ${token}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Invalid bearer token', error_code: '1024', success: false });
    expect(h.logText()).toContain('alg of type object not pinned');
    expect(h.logText()).not.toContain(token.slice(0, 20));
  });

  it('answers 1024 "OAuth key has been revoked" for a revoked token', async () => {
    const token = await h.token(projectId, ['phone'], { jti: 'revoked-jti-1' });
    expect((await h.call(PHONE, {}, `Bearer ${token}`)).status).toBe(200);
    h.revocations.revoked.add('revoked-jti-1');
    const res = await h.call(PHONE, {}, `Bearer ${token}`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'OAuth key has been revoked', error_code: '1024', success: false });
  });

  it('adds the route error fields (completions: []) to autocomplete error bodies', async () => {
    const res = await h.call(AUTOCOMPLETE, { q: 'x' }, `Bearer ${await h.token(projectId, ['phone'])}`);
    expect(res.body).toEqual({
      completions: [],
      message: 'Token does not have the required scope for this endpoint',
      error_code: '1026',
      success: false,
    });
  });

  it('answers 1025 (400) for a valid token naming a project that never existed', async () => {
    const res = await h.call(AUTOCOMPLETE, { q: 'x' }, `Bearer ${await h.token('prj_missing', ['address'])}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      completions: [],
      message: 'Project not found for bearer token',
      error_code: '1025',
      success: false,
    });
  });
});
