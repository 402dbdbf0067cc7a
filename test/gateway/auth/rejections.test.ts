import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcTimestamp } from '#common';
import { bearer } from '#test/tokens.ts';
import { type Harness, startHarness } from '../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(import.meta.dirname);
});
afterAll(() => h.close());

async function call(
  path: string,
  authorization?: string,
): Promise<{ status: number; body: unknown; challenge: string | null }> {
  const res = await h.fetch(path, authorization === undefined ? {} : { headers: { authorization } });
  return { status: res.status, body: await res.json(), challenge: res.headers.get('www-authenticate') };
}

const INVALID = { message: 'Invalid bearer token', error_code: '1024', success: false };

describe('bearer verification at the gateway, end to end', () => {
  it('forwards a valid token with the required scope', async () => {
    const res = await call('/api/phone/v1/verification?phone_number=1', bearer(await h.kit.tokenWithScopes(['phone'])));
    expect(res.status).toBe(200);
  });

  it('forwards a valid token sent after more than one space, Authorization as the client sent it', async () => {
    const authorization = `Bearer   ${await h.kit.tokenWithScopes(['phone'])}`;
    const res = await h.fetch('/api/phone/v1/verification?phone_number=1', { headers: { authorization } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { headers: Record<string, string> }).headers['authorization']).toBe(authorization);
  });

  it('answers a request without any credential with 401 1040 and a bare Bearer challenge', async () => {
    const before = h.upstream.seen.length;
    const res = await call('/api/phone/v1/verification');
    expect(res).toMatchObject({
      status: 401,
      body: { error_code: '1040', success: false },
      challenge: 'Bearer realm="tokengate"',
    });
    expect(h.upstream.seen.length).toBe(before);
  });

  it('rejects a malformed token with 1024 and error="invalid_token"', async () => {
    const res = await call('/api/phone/v1/verification', 'Bearer abc.def');
    expect(res).toMatchObject({ status: 401, body: INVALID });
    expect(res.challenge).toContain('error="invalid_token"');
  });

  it('rejects a token signed by another key under our kid with 1024', async () => {
    expect(await call('/api/phone/v1/verification', bearer(await h.kit.forgedToken()))).toMatchObject({
      status: 401,
      body: INVALID,
    });
  });

  it('rejects wrong issuer, wrong audience and wrong typ with 1024', async () => {
    for (const token of [
      await h.kit.wrongIssuerToken(),
      await h.kit.wrongAudienceToken(),
      await h.kit.wrongTypToken(),
    ]) {
      expect(await call('/api/phone/v1/verification', bearer(token))).toMatchObject({ status: 401, body: INVALID });
    }
  });

  it('rejects alg none and HMAC algorithm confusion with 1024', async () => {
    expect(await call('/api/phone/v1/verification', bearer(h.kit.noneAlgToken()))).toMatchObject({
      status: 401,
      body: INVALID,
    });
    expect(await call('/api/phone/v1/verification', bearer(h.kit.hs256Token()))).toMatchObject({
      status: 401,
      body: INVALID,
    });
  });

  it('rejects an expired token with 1030 naming the expiry in UTC', async () => {
    const token = await h.kit.expiredToken(120);
    const exp = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp: number };
    const res = await call('/api/phone/v1/verification', bearer(token));
    expect(res).toMatchObject({
      status: 401,
      body: { message: `Token expired at ${utcTimestamp(exp.exp)}`, error_code: '1030', success: false },
    });
  });

  it('rejects a forged expired token as invalid (1024), not expired', async () => {
    const res = await call('/api/phone/v1/verification', bearer(await h.kit.forgedToken({ expiresInSec: -300 })));
    expect(res).toMatchObject({ status: 401, body: INVALID });
  });

  it('rejects a token lacking the route scope with 1026 and names the scope in the challenge', async () => {
    const res = await call('/api/phone/v1/verification', bearer(await h.kit.tokenWithScopes(['address'])));
    expect(res).toMatchObject({ status: 401, body: { error_code: '1026', success: false } });
    expect(res.challenge).toContain('error="insufficient_scope"');
    expect(res.challenge).toContain('scope="phone"');
  });

  it('adds completions: [] to every error body of the autocomplete route', async () => {
    const res = await call('/api/au/address/autocomplete?q=x', bearer(await h.kit.tokenWithScopes(['phone'])));
    expect(res.body).toEqual({
      completions: [],
      message: 'Token does not have the required scope for this endpoint',
      error_code: '1026',
      success: false,
    });
  });

  it('requires every scope on a match: all route and one of them on a match: any route', async () => {
    const phoneOnly = bearer(await h.kit.tokenWithScopes(['phone']));
    expect((await call('/api/bundle', phoneOnly)).status).toBe(401);
    expect((await call('/api/either', phoneOnly)).status).toBe(200);
    expect((await call('/api/bundle', bearer(await h.kit.tokenWithScopes(['phone', 'email'])))).status).toBe(200);
  });

  it('rejects a token whose kid is not in the key set with 1024', async () => {
    expect(await call('/api/any-token', bearer(await h.kit.unknownKidToken()))).toMatchObject({
      status: 401,
      body: INVALID,
    });
  });

  it('ignores a token in the access_token query parameter (Authorization header only)', async () => {
    const token = await h.kit.goodToken();
    expect(await call(`/api/any-token?access_token=${token}`)).toMatchObject({
      status: 401,
      body: { error_code: '1040' },
    });
  });
});
