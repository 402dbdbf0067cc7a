import { beforeAll, describe, expect, it } from 'vitest';
import { createVerifier } from '#auth';
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
import { ADDRESS, ANY, type VerifierFixture, verifierFixture } from './verifier-setup.ts';

describe('verifier: accepted tokens', () => {
  let f: VerifierFixture;
  beforeAll(async () => {
    f = await verifierFixture();
  });

  it('accepts a good token synchronously and returns its claims', async () => {
    const token = await f.kit.goodToken({ scopes: ['address', 'phone'] });
    const decision = f.verifier.authorize(bearer(token), ADDRESS);
    expect(decision).not.toBeInstanceOf(Promise);
    expect(decision).toMatchObject({
      ok: true,
      token: { sub: 'client-1', clientId: 'client-1', projectId: 'project-1', scopes: ['address', 'phone'] },
    });
  });

  it('accepts typ application/at+jwt in any case', async () => {
    const token = await f.kit.wrongTypToken('Application/AT+JWT');
    expect(f.verifier.authorize(bearer(token), ANY)).toMatchObject({ ok: true });
  });

  it('accepts an aud array that contains our audience', async () => {
    const token = await f.kit.goodToken({ claims: { aud: ['http://x.test', TEST_AUDIENCE] } });
    expect(f.verifier.authorize(bearer(token), ANY)).toMatchObject({ ok: true });
  });
});

describe('verifier: every algorithm is verified with node:crypto', () => {
  it.each(['RS256', 'PS256', 'ES256', 'EdDSA'] as const)('accepts a %s token and refuses its forgery', async (alg) => {
    const f = await verifierFixture({}, await createTestKey(alg));
    expect(f.verifier.authorize(bearer(await f.kit.goodToken()), ANY)).toMatchObject({ ok: true });
    expect(f.verifier.authorize(bearer(await f.kit.forgedToken()), ANY)).toMatchObject({
      ok: false,
      kind: 'invalid_token',
    });
  });

  it('refuses an RS256 header on a key published for PS256 (one algorithm per key)', async () => {
    const ps = await createTestKey('PS256');
    const rsaAsRs = { ...ps, alg: 'RS256' as const };
    const f = await verifierFixture({ algorithms: ['RS256', 'PS256'] }, ps);
    const kit = await createTokenKit(f.clock, rsaAsRs);
    expect(f.verifier.authorize(bearer(await kit.goodToken()), ANY)).toMatchObject({ kind: 'invalid_token' });
  });

  it('refuses an RS256 header naming an EC key, even when the key declares no alg', async () => {
    const ec = await createTestKey('ES256');
    const rsa = await createTestKey('RS256');
    const keys = { get: (kid: string) => (kid === ec.kid ? ec.publicKey : undefined), ready: () => true };
    const clock = createFakeClock();
    const verifier = createVerifier({
      issuer: TEST_ISSUER,
      audience: TEST_AUDIENCE,
      algorithms: ['RS256', 'ES256'],
      keys,
      revocations: simpleRevocations(),
      clock,
    });
    const token = await (await createTokenKit(clock, { ...rsa, kid: ec.kid })).goodToken();
    expect(verifier.authorize(bearer(token), ANY)).toMatchObject({
      kind: 'invalid_token',
      detail: `key ${ec.kid} does not fit RS256`,
    });
  });

  it('refuses a supported algorithm that is not pinned, even when the key fits it and declares no alg', async () => {
    const ec = await createTestKey('ES256');
    const keys = { get: (kid: string) => (kid === ec.kid ? ec.publicKey : undefined), ready: () => true };
    const clock = createFakeClock();
    const pinnedTo = (algorithms: string[]) =>
      createVerifier({
        issuer: TEST_ISSUER,
        audience: TEST_AUDIENCE,
        algorithms,
        keys,
        revocations: simpleRevocations(),
        clock,
      });
    const token = bearer(await (await createTokenKit(clock, ec)).goodToken());
    expect(pinnedTo(['RS256', 'ES256']).authorize(token, ANY)).toMatchObject({ ok: true });
    expect(pinnedTo(['RS256']).authorize(token, ANY)).toMatchObject({
      kind: 'invalid_token',
      detail: 'alg ES256 not pinned',
    });
  });

  it('accepts ES256 signatures whatever the top bits of r and s (raw R||S re-encoded as DER)', async () => {
    const f = await verifierFixture({}, await createTestKey('ES256'));
    const tokens = await Promise.all(Array.from({ length: 40 }, () => f.kit.goodToken()));
    const topBits = new Set(
      tokens.map((t) => Buffer.from(t.split('.')[2] ?? '', 'base64url')[0] ?? 0).map((b) => b >> 7),
    );
    expect(topBits.size).toBe(2);
    for (const token of tokens) expect(f.verifier.authorize(bearer(token), ANY)).toMatchObject({ ok: true });
  });

  it('refuses an ES256 signature in DER form and the all-zero "psychic" signature', async () => {
    const f = await verifierFixture({}, await createTestKey('ES256'));
    const [h, p] = (await f.kit.goodToken()).split('.');
    const zero = Buffer.alloc(64).toString('base64url');
    expect(f.verifier.authorize(bearer(`${h}.${p}.${zero}`), ANY)).toMatchObject({ kind: 'invalid_token' });
    const der = Buffer.concat([
      Buffer.from([0x30, 0x44, 0x02, 0x20]),
      Buffer.alloc(32, 1),
      Buffer.from([0x02, 0x20]),
      Buffer.alloc(32, 1),
    ]);
    expect(f.verifier.authorize(bearer(`${h}.${p}.${der.toString('base64url')}`), ANY)).toMatchObject({
      kind: 'invalid_token',
    });
  });
});

describe('verifier: construction refuses misuse with a TypeError', () => {
  const base = { issuer: TEST_ISSUER, audience: TEST_AUDIENCE, keys: staticKeys(), revocations: simpleRevocations() };

  it.each([['none'], ['HS256'], ['HS512'], ['NONE']])('refuses the pinned algorithm %s', (alg) => {
    expect(() => createVerifier({ ...base, algorithms: [alg] })).toThrow(TypeError);
  });

  it('refuses an empty algorithm list, an unknown algorithm and an empty issuer', () => {
    expect(() => createVerifier({ ...base, algorithms: [] })).toThrow(TypeError);
    expect(() => createVerifier({ ...base, algorithms: ['RS1'] })).toThrow(TypeError);
    expect(() => createVerifier({ ...base, issuer: '', algorithms: ['RS256'] })).toThrow(TypeError);
  });
});
