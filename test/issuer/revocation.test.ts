import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IssuerInputError } from '#issuer';
import { createFakeClock } from '#test/fake-clock.ts';
import { decodeJwt, type Harness, postForm, startHarness, verdictOf } from './harness.ts';

const clock = createFakeClock(Date.now() - (Date.now() % 1000));
let h: Harness;
let a: { id: string; secret: string };
let b: { id: string; secret: string };

beforeAll(async () => {
  h = await startHarness({ clock });
  const ca = await h.client(['address', 'email']);
  const cb = await h.client(['address']);
  a = { id: ca.client.clientId, secret: ca.secret };
  b = { id: cb.client.clientId, secret: cb.secret };
});
afterAll(() => h.close());

async function tokenFor(c: { id: string; secret: string }): Promise<string> {
  const res = await postForm(h.url, { grant_type: 'client_credentials', client_id: c.id, client_secret: c.secret });
  expect(res.status).toBe(200);
  return String(res.json['access_token']);
}

const kindOf = (token: string) => verdictOf(h, token, clock);

const revoke = (c: { id: string; secret: string }, form: Record<string, string>) =>
  postForm(h.url, form, { path: '/oauth/revoke', basic: [c.id, c.secret] });

describe('revocation endpoint (RFC 7009)', () => {
  it('revokes a token of the calling client: 200, no-store, and the token is refused afterwards', async () => {
    const token = await tokenFor(a);
    expect(await kindOf(token)).toBe('ok');
    const res = await revoke(a, { token, token_type_hint: 'refresh_token' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await kindOf(token)).toBe('token_revoked');
  });

  it('answers 200 for unknown and malformed tokens', async () => {
    for (const token of ['garbage', 'a.b.c', `${(await tokenFor(a)).slice(0, -4)}AAAA`]) {
      expect((await revoke(a, { token })).status).toBe(200);
    }
  });

  it("refuses another client's token with unauthorized_client and does not revoke it (RFC 7009 §2.1)", async () => {
    const token = await tokenFor(b);
    const answer = await revoke(a, { token });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: 'unauthorized_client' });
    expect(await kindOf(token)).toBe('ok');
    expect(h.logs()).toContain("revocation of another client's token refused");
  });

  it("answers 200 for another client's expired token, as for any invalid token (RFC 7009 §2.2)", async () => {
    const res = await postForm(h.url, {
      grant_type: 'client_credentials',
      client_id: b.id,
      client_secret: b.secret,
      expires_in: '1',
    });
    clock.advanceSec(2);
    const answer = await revoke(a, { token: String(res.json['access_token']) });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it("answers 200 for another client's revoked token, revoked by its owner or by disabling its client (RFC 7009 §2.2)", async () => {
    const revokedByOwner = await tokenFor(b);
    expect((await revoke(b, { token: revokedByOwner })).status).toBe(200);
    const c = await h.client(['address']);
    const ofDisabled = await tokenFor({ id: c.client.clientId, secret: c.secret });
    await h.issuer.setClientEnabled(c.client.clientId, false);
    for (const token of [revokedByOwner, ofDisabled]) {
      expect(await kindOf(token)).toBe('token_revoked');
      const answer = await revoke(a, { token });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('ignores an unrecognized parameter sent more than once and revokes the token', async () => {
    const token = await tokenFor(a);
    const answer = await postForm(h.url, `token=${token}&token_type_hint=access_token&x_trace=1&x_trace=2`, {
      path: '/oauth/revoke',
      basic: [a.id, a.secret],
    });
    expect(answer.status).toBe(200);
    expect(await kindOf(token)).toBe('token_revoked');
  });

  it('requires the token parameter, client authentication and POST', async () => {
    expect((await revoke(a, {})).json).toMatchObject({ error: 'invalid_request' });
    const unauthenticated = await postForm(h.url, { token: 'x' }, { path: '/oauth/revoke' });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toBe('Basic realm="tokengate"');
    const wrong = await postForm(h.url, { token: 'x' }, { path: '/oauth/revoke', basic: [a.id, 'wrong'] });
    expect(wrong.json).toMatchObject({ error: 'invalid_client' });
    expect((await fetch(`${h.url}/oauth/revoke`)).headers.get('allow')).toBe('POST');
  });
});

describe('admin revocation', () => {
  it('revokes by JWT after checking our signature, and by bare jti', async () => {
    const byJwt = await tokenFor(a);
    await h.issuer.revokeToken(byJwt);
    expect(await kindOf(byJwt)).toBe('token_revoked');
    const byJti = await tokenFor(a);
    await h.issuer.revokeToken(String(decodeJwt(byJti).payload['jti']));
    expect(await kindOf(byJti)).toBe('token_revoked');
  });

  it('refuses a forged JWT and a malformed jti with IssuerInputError', async () => {
    const token = await tokenFor(a);
    const [header, , signature] = token.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...decodeJwt(token).payload, sub: 'x' })).toString('base64url')}.${signature}`;
    await expect(h.issuer.revokeToken(forged)).rejects.toThrow(IssuerInputError);
    await expect(h.issuer.revokeToken('not a jti!')).rejects.toThrow(IssuerInputError);
  });
});

describe('client disable and enable', () => {
  it('revokes outstanding tokens on disable and lets a re-enabled client get working tokens within the same second', async () => {
    const c = await h.client(['phone']);
    const cred = { id: c.client.clientId, secret: c.secret };
    const before = await tokenFor(cred);
    await h.issuer.setClientEnabled(cred.id, false);
    expect(await kindOf(before)).toBe('token_revoked');
    expect(
      (await postForm(h.url, { grant_type: 'client_credentials', client_id: cred.id, client_secret: cred.secret }))
        .status,
    ).toBe(401);
    await h.issuer.setClientEnabled(cred.id, true);
    const after = await tokenFor(cred);
    // Same second on the fake clock: the disable raised the generation, the new token carries it.
    expect(decodeJwt(before).payload).toMatchObject({ iat: clock.nowSec(), client_gen: 0 });
    expect(decodeJwt(after).payload).toMatchObject({ iat: clock.nowSec(), client_gen: 1 });
    expect(await kindOf(after)).toBe('ok');
    expect(await kindOf(before)).toBe('token_revoked');
  });

  it('revokes a token issued between a re-enable and a second disable within the same second', async () => {
    const c = await h.client(['phone']);
    const cred = { id: c.client.clientId, secret: c.secret };
    const second = clock.nowSec();
    await h.issuer.setClientEnabled(cred.id, false);
    await h.issuer.setClientEnabled(cred.id, true);
    const token = await tokenFor(cred);
    expect(await kindOf(token)).toBe('ok');
    await h.issuer.setClientEnabled(cred.id, false);
    expect(clock.nowSec()).toBe(second);
    expect(await kindOf(token)).toBe('token_revoked');
    expect(
      (await postForm(h.url, { grant_type: 'client_credentials', client_id: cred.id, client_secret: cred.secret }))
        .status,
    ).toBe(401);
  });

  it('revokes, by raising the generation, a token issued in the same second after an earlier revocation of the client tokens (account disable)', async () => {
    const c = await h.client(['phone']);
    const cred = { id: c.client.clientId, secret: c.secret };
    const first = await tokenFor(cred);
    await h.issuer.revokeClientTokens(cred.id);
    const second = await tokenFor(cred);
    expect([await kindOf(first), await kindOf(second)]).toEqual(['token_revoked', 'ok']);
    await h.issuer.revokeClientTokens(cred.id);
    expect(decodeJwt(second).payload['iat']).toBe(clock.nowSec());
    expect(await kindOf(second)).toBe('token_revoked');
    expect(await h.store.getClient(cred.id)).toMatchObject({ enabled: true, generation: 2 });
  });

  it('does not revoke tokens when their project is deleted', async () => {
    const c = await h.client(['email']);
    const token = await tokenFor({ id: c.client.clientId, secret: c.secret });
    const cursor = await feed('?cursor=0').then((r) => Number(r.body['cursor']));
    await h.store.deleteProject(c.client.projectId);
    expect(await kindOf(token)).toBe('ok');
    expect((await feed(`?cursor=${cursor}`)).body['entries']).toEqual([]);
  });
});

async function feed(query: string, token = 'feed-token-for-tests-0123456789') {
  const res = await fetch(`${h.url}/internal/revocations${query}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('revocation feed', () => {
  it('refuses a missing or wrong feed token with 401', async () => {
    expect((await fetch(`${h.url}/internal/revocations`)).status).toBe(401);
    expect((await feed('', 'wrong')).status).toBe(401);
  });

  it('refuses a malformed cursor or wait with 400', async () => {
    expect((await feed('?cursor=-1')).status).toBe(400);
    expect((await feed('?wait=abc')).status).toBe(400);
  });

  it('returns live entries after the cursor, oldest first, with the last seq as the new cursor', async () => {
    const all = await feed('?cursor=0');
    const entries = all.body['entries'] as Array<Record<string, unknown>>;
    expect(entries.length).toBeGreaterThan(0);
    expect(entries[0]).toEqual({
      seq: expect.any(Number),
      kind: expect.any(String),
      value: expect.any(String),
      issuedBefore: null,
      generation: null,
      expiresAt: expect.any(Number),
      createdAt: expect.any(Number),
    });
    expect(all.body['cursor']).toBe(entries.at(-1)?.['seq']);
    const seqs = entries.map((e) => Number(e['seq']));
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(await feed(`?cursor=${String(all.body['cursor'])}`)).toEqual({
      status: 200,
      body: { cursor: all.body['cursor'], entries: [], keys: expect.any(Object) },
    });
  });

  it('gives a revoked jti an expiry of the token exp plus 60 s skew and a client entry its new generation and issuedBefore = now', async () => {
    const cursor = Number((await feed('?cursor=0')).body['cursor']);
    const token = await tokenFor(b);
    await revoke(b, { token });
    await h.issuer.setClientEnabled(b.id, false);
    const entries = (await feed(`?cursor=${cursor}`)).body['entries'] as Array<Record<string, unknown>>;
    expect(entries).toMatchObject([
      {
        kind: 'jti',
        value: decodeJwt(token).payload['jti'],
        issuedBefore: null,
        expiresAt: Number(decodeJwt(token).payload['exp']) + 60,
      },
      { kind: 'client', value: b.id, issuedBefore: clock.nowSec(), generation: 1, expiresAt: clock.nowSec() + 3660 },
    ]);
    await h.issuer.setClientEnabled(b.id, true);
  });

  it('wakes a long poll within a second of a revocation', async () => {
    const cursor = Number((await feed('?cursor=0')).body['cursor']);
    const started = performance.now();
    const pending = feed(`?cursor=${cursor}&wait=30`);
    setTimeout(() => void h.issuer.revokeToken('jti-from-long-poll-test'), 100);
    const res = await pending;
    expect(performance.now() - started).toBeLessThan(1000);
    expect(res.body['entries']).toMatchObject([{ kind: 'jti', value: 'jti-from-long-poll-test' }]);
  });

  it('answers an unwoken long poll with no entries and the same cursor when wait runs out', async () => {
    const cursor = Number((await feed('?cursor=0')).body['cursor']);
    expect((await feed(`?cursor=${cursor}&wait=1`)).body).toEqual({ cursor, entries: [], keys: expect.any(Object) });
  });

  it('drops entries no token can outlive', async () => {
    expect(((await feed('?cursor=0')).body['entries'] as unknown[]).length).toBeGreaterThan(0);
    clock.advanceSec(3661 + 60);
    expect((await feed('?cursor=0')).body['entries']).toEqual([]);
    expect(await h.store.pruneRevocations(clock.nowSec())).toBeGreaterThan(0);
  });
});
