import { beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '#test/tokens.ts';
import { ADDRESS, type VerifierFixture, verifierFixture } from './verifier-setup.ts';

/** A thumbprint-shaped `cnf.jkt` (43 base64url characters). */
const JKT = 'A'.repeat(43);

/**
 * `verifier.inspect(token)`: the checks of `authorize` for a token handed over on its own (an
 * introspection endpoint), without a request's presentation or a route's scopes.
 */
describe('verifier: inspecting a token on its own', () => {
  let f: VerifierFixture;
  beforeAll(async () => {
    f = await verifierFixture();
  });

  it('accepts a good token whatever its scopes, as authorize does for any route', async () => {
    const token = await f.kit.tokenWithScopes(['phone']);
    expect(await f.verifier.inspect(token)).toMatchObject({
      ok: true,
      token: { scopes: ['phone'], clientId: 'client-1' },
    });
    expect(await f.verifier.authorize(bearer(token), ADDRESS)).toMatchObject({ ok: false, kind: 'insufficient_scope' });
  });

  it('accepts a DPoP-bound token without a proof, while authorize still refuses it as Bearer', async () => {
    const token = await f.kit.goodToken({ claims: { cnf: { jkt: JKT } } });
    expect(await f.verifier.inspect(token)).toMatchObject({ ok: true, token: { jkt: JKT } });
    expect(await f.verifier.authorize(bearer(token), { scopes: [], match: 'any' })).toMatchObject({
      ok: false,
      kind: 'invalid_token',
      detail: 'DPoP-bound token presented as Bearer',
    });
    // And again from the verified-token cache (a token is cached from its second sighting).
    expect(await f.verifier.authorize(bearer(token), { scopes: [], match: 'any' })).toMatchObject({ ok: false });
  });

  it('refuses what authorize refuses: forged, expired, revoked, not ours', async () => {
    expect(await f.verifier.inspect(await f.kit.forgedToken())).toMatchObject({ ok: false, kind: 'invalid_token' });
    expect(await f.verifier.inspect(await f.kit.expiredToken())).toMatchObject({ ok: false, kind: 'token_expired' });
    expect(await f.verifier.inspect(await f.kit.wrongIssuerToken())).toMatchObject({ ok: false });
    const revoked = await f.kit.goodToken();
    expect(await f.verifier.inspect(revoked)).toMatchObject({ ok: true });
    const { jti } = JSON.parse(Buffer.from(revoked.split('.')[1] ?? '', 'base64url').toString()) as { jti: string };
    f.revocations.revoked.add(jti);
    expect(await f.verifier.inspect(revoked)).toMatchObject({ ok: false, kind: 'token_revoked' });
  });

  it('refuses an empty token and one longer than maxTokenLength unparsed', async () => {
    expect(await f.verifier.inspect('')).toMatchObject({ ok: false, kind: 'invalid_token' });
    expect(await f.verifier.inspect('a'.repeat(8193))).toMatchObject({ ok: false, detail: 'token too long' });
  });
});
