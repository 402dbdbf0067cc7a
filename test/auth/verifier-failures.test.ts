import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, TEST_AUDIENCE, TEST_ISSUER } from '#test/tokens.ts';
import { ADDRESS, ANY, type VerifierFixture, verifierFixture } from './verifier-setup.ts';

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('verifier: every failure path', () => {
  let f: VerifierFixture;
  beforeAll(async () => {
    f = await verifierFixture();
  });
  const decide = (token: string, requirement = ANY) => f.verifier.authorize(bearer(token), requirement);

  it('reports credentials_missing without a header', () => {
    expect(f.verifier.authorize(undefined, ANY)).toMatchObject({ ok: false, kind: 'credentials_missing' });
  });

  it('rejects a token signed by another key under our kid as invalid_token', async () => {
    expect(decide(await f.kit.forgedToken())).toMatchObject({ kind: 'invalid_token', detail: 'bad signature' });
  });

  it('rejects a token from another issuer, for another audience, or with another typ', async () => {
    expect(decide(await f.kit.wrongIssuerToken())).toMatchObject({ kind: 'invalid_token', detail: 'iss mismatch' });
    expect(decide(await f.kit.wrongAudienceToken())).toMatchObject({ kind: 'invalid_token', detail: 'aud mismatch' });
    expect(decide(await f.kit.wrongTypToken('JWT'))).toMatchObject({ kind: 'invalid_token' });
    expect(decide(await f.kit.goodToken({ header: { typ: undefined } }))).toMatchObject({ kind: 'invalid_token' });
  });

  it('matches iss, aud and typ exactly: an issuer or audience that merely starts with or contains ours, or a typ ending in at+jwt, is refused', async () => {
    expect(decide(await f.kit.wrongIssuerToken({ claims: { iss: `${TEST_ISSUER}.evil.test` } }))).toMatchObject({
      kind: 'invalid_token',
      detail: 'iss mismatch',
    });
    expect(decide(await f.kit.wrongAudienceToken({ claims: { aud: `${TEST_AUDIENCE}.evil.test` } }))).toMatchObject({
      kind: 'invalid_token',
      detail: 'aud mismatch',
    });
    expect(decide(await f.kit.wrongAudienceToken({ claims: { aud: `x${TEST_AUDIENCE}` } }))).toMatchObject({
      kind: 'invalid_token',
      detail: 'aud mismatch',
    });
    expect(decide(await f.kit.wrongTypToken('not-at+jwt'))).toMatchObject({
      kind: 'invalid_token',
      detail: 'typ not-at+jwt',
    });
  });

  it.each(['none', 'None', 'NONE', 'nOnE'])('rejects alg %s with an empty signature', (alg) => {
    expect(decide(f.kit.noneAlgToken(alg))).toMatchObject({ kind: 'invalid_token' });
  });

  it('rejects HS256 keyed with our public key (algorithm confusion)', () => {
    expect(decide(f.kit.hs256Token())).toMatchObject({ kind: 'invalid_token' });
  });

  it('rejects a token without kid, and a kid that is not a string', async () => {
    expect(decide(await f.kit.goodToken({ header: { kid: undefined } }))).toMatchObject({
      kind: 'invalid_token',
      detail: 'kid missing',
    });
    const [, p, s] = (await f.kit.goodToken()).split('.');
    expect(decide(`${b64({ alg: 'RS256', kid: 123, typ: 'at+jwt' })}.${p}.${s}`)).toMatchObject({
      kind: 'invalid_token',
    });
  });

  it('rejects an unknown kid when the resolver cannot refetch', async () => {
    expect(decide(await f.kit.unknownKidToken('../../dev/null'))).toMatchObject({ kind: 'invalid_token' });
  });

  it('accepts a hand-signed token and rejects crit and b64:false headers it does not implement', () => {
    const header = { alg: 'RS256', kid: f.kit.key.kid, typ: 'at+jwt' };
    expect(decide(f.kit.rawToken(header, f.kit.claimsFor()))).toMatchObject({ ok: true });
    expect(decide(f.kit.rawToken({ ...header, crit: ['exp2'], exp2: 1 }, f.kit.claimsFor()))).toMatchObject({
      kind: 'invalid_token',
    });
    expect(decide(f.kit.rawToken({ ...header, b64: false }, f.kit.claimsFor()))).toMatchObject({
      kind: 'invalid_token',
    });
  });

  it('rejects a signature whose unused trailing bits differ (one string form per token)', async () => {
    const token = await f.kit.goodToken();
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(token.at(-1) ?? 'A');
    const twin = token.slice(0, -1) + alphabet[last ^ 1];
    expect(Buffer.from(twin.split('.')[2] ?? '', 'base64url')).toEqual(
      Buffer.from(token.split('.')[2] ?? '', 'base64url'),
    );
    expect(decide(twin)).toMatchObject({ kind: 'invalid_token', detail: 'signature is not canonical base64url' });
  });

  it.each([
    ['a missing sub', { sub: undefined }],
    ['a missing client_id', { client_id: undefined }],
    ['a numeric client_id', { client_id: 7 }],
    ['a missing jti', { jti: undefined }],
    ['a missing project_id', { project_id: undefined }],
    ['a missing exp', { exp: undefined }],
    ['a string exp', { exp: '9999999999' }],
    ['a float exp', { exp: 1.5e9 + 0.5 }],
    ['a scope array', { scope: ['address'] }],
    ['an iat in the future', { iat: 4_000_000_000, exp: 4_000_000_900 }],
    ['a lifetime beyond 3600 s', { exp: 4_000_000_000 }],
    ['an nbf in the future', { nbf: 4_000_000_000 }],
    ['a string nbf', { nbf: 'soon' }],
  ])('rejects a token with %s', async (_name, claims) => {
    expect(decide(await f.kit.goodToken({ claims }))).toMatchObject({ kind: 'invalid_token' });
  });

  it.each([
    ['four segments', (t: string) => `${t}.x`],
    ['two segments', (t: string) => t.split('.').slice(0, 2).join('.')],
    ['an empty signature', (t: string) => t.replace(/[^.]+$/, '')],
    ['a header that is a JSON array', (t: string) => `${b64([1])}.${t.split('.')[1]}.${t.split('.')[2]}`],
    ['a payload that is not JSON', (t: string) => `${t.split('.')[0]}.bm90IGpzb24.${t.split('.')[2]}`],
  ])('rejects a token with %s', async (_name, mangle) => {
    expect(decide(mangle(await f.kit.goodToken()))).toMatchObject({ kind: 'invalid_token' });
  });

  it('reports an expired token as token_expired with its exp', async () => {
    const token = await f.kit.expiredToken(60);
    const exp = f.kit.claimsFor().iat as number;
    expect(decide(token)).toMatchObject({ kind: 'token_expired', expiredAt: exp - 60 });
  });

  it('reports a revoked token as token_revoked', async () => {
    const token = await f.kit.goodToken({ claims: { jti: 'revoked-jti' } });
    f.revocations.revoked.add('revoked-jti');
    expect(decide(token)).toMatchObject({ kind: 'token_revoked' });
  });

  it('reports insufficient_scope with the route requirement', async () => {
    const token = await f.kit.tokenWithScopes(['phone']);
    expect(decide(token, ADDRESS)).toMatchObject({ kind: 'insufficient_scope', required: ADDRESS });
  });

  it('reports revocations_stale when the revocation set is not usable', async () => {
    const token = await f.kit.goodToken();
    f.revocations.stale = true;
    expect(decide(token)).toMatchObject({ kind: 'revocations_stale' });
    f.revocations.stale = false;
  });
});

describe('verifier: scope requirements', () => {
  let f: VerifierFixture;
  beforeAll(async () => {
    f = await verifierFixture();
  });

  it('needs one of the scopes with match any and every scope with match all', async () => {
    const token = bearer(await f.kit.tokenWithScopes(['address']));
    expect(f.verifier.authorize(token, { scopes: ['phone', 'address'], match: 'any' })).toMatchObject({ ok: true });
    expect(f.verifier.authorize(token, { scopes: ['phone', 'address'], match: 'all' })).toMatchObject({
      kind: 'insufficient_scope',
    });
  });

  it('grants nothing for unknown scope names in the token', async () => {
    const token = bearer(await f.kit.goodToken({ claims: { scope: 'admin addresses' } }));
    expect(f.verifier.authorize(token, ADDRESS)).toMatchObject({ kind: 'insufficient_scope' });
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ ok: true, token: { scopes: [] } });
  });

  it('reads the scope claim as space-separated only: a comma-separated list grants nothing', async () => {
    const token = bearer(await f.kit.goodToken({ claims: { scope: 'phone,address' } }));
    expect(f.verifier.authorize(token, ADDRESS)).toMatchObject({ kind: 'insufficient_scope' });
  });

  it("reads client_gen as the token's client generation, and refuses one that is not a non-negative integer", async () => {
    const withGen = bearer(await f.kit.goodToken({ claims: { client_gen: 7 } }));
    expect(f.verifier.authorize(withGen, ANY)).toMatchObject({ ok: true, token: { clientGen: 7 } });
    for (const bad of [-1, 1.5, '3', null, 2 ** 53]) {
      const token = bearer(await f.kit.goodToken({ claims: { client_gen: bad } }));
      expect({ bad, decision: f.verifier.authorize(token, ANY) }).toMatchObject({
        bad,
        decision: { kind: 'invalid_token', detail: 'client_gen is not a non-negative integer' },
      });
    }
  });

  it('refuses a DPoP-bound token (cnf.jkt) presented as Bearer, on every sighting, and a cnf it cannot check', async () => {
    const jkt = 'A'.repeat(43);
    const bound = bearer(await f.kit.goodToken({ claims: { cnf: { jkt } } }));
    for (let sighting = 0; sighting < 3; sighting++)
      expect(f.verifier.authorize(bound, ANY)).toMatchObject({
        kind: 'invalid_token',
        detail: 'DPoP-bound token presented as Bearer',
      });
    for (const cnf of [{ jkt: 'short' }, { x5t: 'A'.repeat(43) }, { jkt, other: 1 }, 'jkt', null, [jkt]]) {
      const token = bearer(await f.kit.goodToken({ claims: { cnf } }));
      expect({ cnf, decision: f.verifier.authorize(token, ANY) }).toMatchObject({
        cnf,
        decision: { kind: 'invalid_token', detail: 'cnf is not {jkt: SHA-256 thumbprint}' },
      });
    }
  });

  it('treats a token without a scope claim as having no scope: accepted where none is required, 1026 where one is', async () => {
    const token = bearer(await f.kit.goodToken({ claims: { scope: undefined } }));
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ ok: true, token: { scopes: [] } });
    expect(f.verifier.authorize(token, ADDRESS)).toMatchObject({ kind: 'insufficient_scope' });
  });
});

describe('verifier: token lifetime', () => {
  it('accepts a token of the longest lifetime the issuer grants (3600 s) and refuses one of 3601 s', async () => {
    const f = await verifierFixture();
    expect(f.verifier.authorize(bearer(await f.kit.goodToken({ expiresInSec: 3600 })), ANY)).toMatchObject({
      ok: true,
    });
    const tooLong = await f.kit.goodToken({ expiresInSec: 3601 });
    expect(f.verifier.authorize(bearer(tooLong), ANY)).toMatchObject({
      kind: 'invalid_token',
      detail: 'lifetime out of bounds',
    });
  });

  it('refuses a token whose exp equals its iat, even while the clock tolerance would cover its exp', async () => {
    const f = await verifierFixture({ clockToleranceSec: 5 });
    const instant = await f.kit.goodToken({ expiresInSec: 0 });
    expect(f.verifier.authorize(bearer(instant), ANY)).toMatchObject({
      kind: 'invalid_token',
      detail: 'lifetime out of bounds',
    });
  });

  it('refuses a token longer than maxTokenLength before parsing it', async () => {
    const f = await verifierFixture({ maxTokenLength: 200 });
    const token = await f.kit.goodToken();
    expect(token.length).toBeGreaterThan(200);
    expect(f.verifier.authorize(bearer(token), ANY)).toMatchObject({
      kind: 'invalid_token',
      detail: 'bearer token too long',
    });
  });
});

describe('verifier: order of checks', () => {
  let f: VerifierFixture;
  beforeAll(async () => {
    f = await verifierFixture();
  });
  const decide = (token: string, requirement = ANY) => f.verifier.authorize(bearer(token), requirement);

  it('answers invalid_token, not token_expired, for a forged expired token', async () => {
    expect(decide(await f.kit.expiredToken(600, { key: undefined }))).toMatchObject({ kind: 'token_expired' });
    const forged = await f.kit.forgedToken({ expiresInSec: -600 });
    expect(decide(forged)).toMatchObject({ kind: 'invalid_token' });
  });

  it('answers invalid_token for an expired token from another issuer', async () => {
    expect(decide(await f.kit.wrongIssuerToken({ expiresInSec: -60 }))).toMatchObject({ kind: 'invalid_token' });
  });

  it('answers token_expired before token_revoked, and token_revoked before insufficient_scope', async () => {
    f.revocations.revoked.add('both');
    const expiredRevoked = await f.kit.expiredToken(60, { claims: { jti: 'both' } });
    expect(decide(expiredRevoked)).toMatchObject({ kind: 'token_expired' });
    const revokedNoScope = await f.kit.tokenWithScopes(['phone'], { claims: { jti: 'both' } });
    expect(decide(revokedNoScope, ADDRESS)).toMatchObject({ kind: 'token_revoked' });
  });

  it('answers token_expired, not revocations_stale, for an expired token while the revocation set is stale', async () => {
    const expired = await f.kit.expiredToken(60);
    f.revocations.stale = true;
    try {
      expect(decide(expired)).toMatchObject({ kind: 'token_expired' });
      expect(decide(await f.kit.goodToken())).toMatchObject({ kind: 'revocations_stale' });
    } finally {
      f.revocations.stale = false;
    }
  });
});

describe('verifier: clock tolerance', () => {
  it('accepts a token up to the tolerance past exp and refuses it at exp + tolerance', async () => {
    const f = await verifierFixture({ clockToleranceSec: 5 });
    const token = bearer(await f.kit.goodToken({ expiresInSec: 10 }));
    f.clock.advanceSec(14);
    f.clock.advance(999);
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ ok: true });
    f.clock.advance(1);
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ kind: 'token_expired' });
  });

  it('refuses a token at exactly exp when the tolerance is 0', async () => {
    const f = await verifierFixture({ clockToleranceSec: 0 });
    const token = bearer(await f.kit.goodToken({ expiresInSec: 10 }));
    f.clock.advanceSec(9);
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ ok: true });
    f.clock.advanceSec(1);
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ kind: 'token_expired' });
  });

  it('uses 5 s by default and accepts an iat up to the tolerance ahead of our clock', async () => {
    const f = await verifierFixture();
    const iat = f.clock.nowSec() + 5;
    expect(f.verifier.authorize(bearer(await f.kit.goodToken({ claims: { iat, exp: iat + 900 } })), ANY)).toMatchObject(
      { ok: true },
    );
    const later = iat + 1;
    const ahead = await f.kit.goodToken({ claims: { iat: later, exp: later + 900 } });
    expect(f.verifier.authorize(bearer(ahead), ANY)).toMatchObject({ kind: 'invalid_token' });
  });
});
