import { describe, expect, it } from 'vitest';
import {
  type AuthDecision,
  createExternalVerifier,
  createIssuerDispatch,
  createVerifier,
  type KeyResolver,
} from '#auth';
import { createFakeClock } from '#test/fake-clock.ts';
import {
  bearer,
  createTestKey,
  createTokenKit,
  simpleRevocations,
  staticKeys,
  TEST_AUDIENCE,
  TEST_ISSUER,
} from '#test/tokens.ts';

const PARTNER = 'https://idp.partner.test';
const ANY = { scopes: [], match: 'any' } as const;
const ADDRESS = { scopes: ['address'], match: 'any' } as const;

/** A key resolver that counts every lookup, to show which issuer's keys a token met. */
function counted(keys: KeyResolver): KeyResolver & { lookups: number } {
  const out = {
    lookups: 0,
    get: (kid: string) => {
      out.lookups += 1;
      return keys.get(kid);
    },
    ready: () => true,
    alg: (kid: string) => keys.alg?.(kid),
  };
  return out;
}

async function setUp() {
  const clock = createFakeClock(Date.now());
  const ownKey = await createTestKey('RS256');
  const partnerKey = await createTestKey('ES256');
  const own = await createTokenKit(clock, ownKey);
  const partner = await createTokenKit(clock, partnerKey);
  const ownKeys = counted(staticKeys(ownKey));
  const partnerKeys = counted(staticKeys(partnerKey));
  const revocations = simpleRevocations();
  const verifier = createVerifier({
    issuer: TEST_ISSUER,
    audience: TEST_AUDIENCE,
    algorithms: ['RS256'],
    keys: ownKeys,
    revocations,
    clock,
  });
  const external = createExternalVerifier({
    name: 'partner',
    issuer: PARTNER,
    audience: 'validation-api',
    algorithms: ['ES256'],
    clockToleranceSec: 5,
    maxTokenLifetimeSec: 86_400,
    tokenTypes: ['at+jwt', 'JWT'],
    claims: { scope: { claim: 'scp', format: 'list', separator: ' ' }, client: 'azp', project: 'tenant' },
    keys: partnerKeys,
    clock,
  });
  const dispatch = createIssuerDispatch({
    own: { name: 'tokengate', issuer: TEST_ISSUER, verifier },
    external: [external],
  });
  const partnerToken = (claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) =>
    partner.goodToken({
      claims: {
        iss: PARTNER,
        aud: 'validation-api',
        azp: 'partner-app',
        tenant: 'acme',
        scp: ['address'],
        client_id: undefined,
        project_id: undefined,
        scope: undefined,
        jti: undefined,
        ...claims,
      },
      header,
    });
  return { clock, own, partner, ownKeys, partnerKeys, revocations, dispatch, partnerToken };
}

const settle = async (decision: AuthDecision | Promise<AuthDecision>) => decision;

describe('several issuers on one route', () => {
  it("accepts each issuer's tokens with its own keys and claim mapping, and marks the external ones", async () => {
    const s = await setUp();
    const both = s.dispatch.forIssuers(['tokengate', 'partner']);
    const ownDecision = await settle(both(bearer(await s.own.goodToken()), ADDRESS));
    expect(ownDecision).toMatchObject({ ok: true, token: { clientId: 'client-1', projectId: 'project-1' } });
    expect(ownDecision.ok && ownDecision.token.issuer).toBeUndefined();
    expect(await settle(both(bearer(await s.partnerToken()), ADDRESS))).toMatchObject({
      ok: true,
      token: { clientId: 'partner-app', projectId: 'acme', scopes: ['address'], issuer: 'partner', jti: '' },
    });
  });

  it("refuses an iss the route does not accept before any key is looked up, whoever's it is", async () => {
    const s = await setUp();
    const ownOnly = s.dispatch.forIssuers(['partner']);
    const partnerOnly = s.dispatch.forIssuers(['tokengate', 'partner']);
    const before = s.ownKeys.lookups + s.partnerKeys.lookups;
    expect(await settle(ownOnly(bearer(await s.own.goodToken()), ANY))).toMatchObject({
      ok: false,
      kind: 'invalid_token',
      detail: 'iss not accepted here',
    });
    expect(await settle(partnerOnly(bearer(await s.own.wrongIssuerToken()), ANY))).toMatchObject({
      kind: 'invalid_token',
    });
    expect(s.ownKeys.lookups + s.partnerKeys.lookups).toBe(before);
  });

  it("never checks a token of one issuer against the other's keys, even under a shared kid", async () => {
    const s = await setUp();
    const both = s.dispatch.forIssuers(['tokengate', 'partner']);
    // Signed by the partner's key but claiming tokengate's iss and naming tokengate's kid.
    const forged = await s.partner.goodToken({ header: { kid: s.own.key.kid, alg: 'ES256' } });
    expect(await settle(both(bearer(forged), ANY))).toMatchObject({ ok: false, kind: 'invalid_token' });
    expect(s.partnerKeys.lookups).toBe(0);
  });

  it("refuses the partner's token without its mapped scope (1026), past its exp (1030), and with another audience", async () => {
    const s = await setUp();
    const both = s.dispatch.forIssuers(['tokengate', 'partner']);
    expect(await settle(both(bearer(await s.partnerToken({ scp: ['phone'] })), ADDRESS))).toMatchObject({
      kind: 'insufficient_scope',
    });
    const nowSec = Math.floor(s.clock.now() / 1000);
    const expired = await s.partnerToken({ iat: nowSec - 100, exp: nowSec - 10 });
    expect(await settle(both(bearer(expired), ADDRESS))).toMatchObject({
      kind: 'token_expired',
      expiredAt: nowSec - 10,
    });
    expect(await settle(both(bearer(await s.partnerToken({ aud: 'other' })), ADDRESS))).toMatchObject({
      kind: 'invalid_token',
      detail: 'aud mismatch',
    });
    expect(await settle(both(bearer(await s.partnerToken({}, { typ: 'dpop+jwt' })), ADDRESS))).toMatchObject({
      kind: 'invalid_token',
    });
  });

  it("keeps revocation exact for tokengate's own tokens on a route that accepts both", async () => {
    const s = await setUp();
    const both = s.dispatch.forIssuers(['tokengate', 'partner']);
    const token = await s.own.goodToken({ claims: { jti: 'revoke-me' } });
    expect(await settle(both(bearer(token), ANY))).toMatchObject({ ok: true });
    s.revocations.revoked.add('revoke-me');
    expect(await settle(both(bearer(token), ANY))).toMatchObject({ ok: false, kind: 'token_revoked' });
  });

  it('answers a request without a bearer token as the own verifier does, or as missing credentials', async () => {
    const s = await setUp();
    expect(await settle(s.dispatch.forIssuers(['tokengate', 'partner'])(undefined, ANY))).toMatchObject({
      kind: 'credentials_missing',
    });
    expect(await settle(s.dispatch.forIssuers(['partner'])('Basic eDp5', ANY))).toMatchObject({
      kind: 'credentials_missing',
    });
    expect(() => s.dispatch.forIssuers(['nobody'])).toThrow(TypeError);
  });
});
