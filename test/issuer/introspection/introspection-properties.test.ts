import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutation } from '#test/hostile-tokens.ts';
import { basicHeader, type Harness, postForm, startHarness } from '../harness.ts';

const INTROSPECT = '/oauth/introspect';

/**
 * Whatever a caller sends, the introspection endpoint answers with one of its documented
 * statuses and a JSON body, and a token is active only if it is the genuine one: no input
 * crashes the process or makes a forgery look active.
 */
describe('the introspection endpoint under arbitrary input', () => {
  let h: Harness;
  let rs: { id: string; secret: string };
  let genuine: string;
  let active: Record<string, unknown>;
  beforeAll(async () => {
    h = await startHarness();
    const project = await h.store.createProject({ name: 'rs', plan: 'business' });
    const created = await h.issuer.createClient({
      projectId: project.id,
      name: 'rs',
      scopes: ['phone'],
      introspect: true,
    });
    rs = { id: created.client.clientId, secret: created.clientSecret };
    const token = await postForm(h.url, { grant_type: 'client_credentials' }, { basic: [rs.id, rs.secret] });
    genuine = String(token.json['access_token']);
    active = (await postForm(h.url, { token: genuine }, { basic: [rs.id, rs.secret], path: INTROSPECT })).json;
    expect(active['active']).toBe(true);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers a mutated token {"active": false}, or the genuine answer when the mutation changed nothing it reads; NUL or too long is a refused form', async () => {
    await fc.assert(
      fc.asyncProperty(mutation, async (mutate) => {
        const token = mutate(genuine);
        const res = await postForm(h.url, { token }, { basic: [rs.id, rs.secret], path: INTROSPECT });
        // A body over the 8 KiB every OAuth endpoint takes is refused unread.
        if (new URLSearchParams({ token }).toString().length > 8192) return void expect(res.status).toBe(413);
        // A NUL byte is refused by the form rules shared with the token endpoint, before any token is read.
        if (token.includes('\0')) return void expect(res.json).toMatchObject({ error: 'invalid_request' });
        expect(res.status).toBe(200);
        if (res.json['active'] === false) expect(res.json).toEqual({ active: false });
        else expect(res.json).toEqual(active);
      }),
      { numRuns: 100 },
    );
  }, 120_000);

  it('answers any body with a documented status and a JSON body', async () => {
    const body = fc.oneof(
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
      fc
        .array(
          fc.tuple(
            fc.constantFrom('token', 'token_type_hint', 'client_id', 'x', '%', '+'),
            fc.string({ maxLength: 40 }),
          ),
        )
        .map((pairs) => Buffer.from(pairs.map(([k, v]) => `${k}=${v}`).join('&'))),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.boolean(), async (bytes, authenticated) => {
        const res = await fetch(`${h.url}${INTROSPECT}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            ...(authenticated ? { authorization: basicHeader(rs.id, rs.secret) } : {}),
          },
          body: bytes,
        });
        expect([200, 400, 401, 429]).toContain(res.status);
        const json = (await res.json()) as Record<string, unknown>;
        if (res.status === 200) expect(json['active']).toBe(false);
        else expect(typeof json['error']).toBe('string');
      }),
      { numRuns: 100 },
    );
  }, 120_000);
});
