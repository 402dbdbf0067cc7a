import fc from 'fast-check';
import { exportJWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDpopNonces, type DpopNonces } from '../../src/auth/dpop/nonce.ts';
import { verifyProof } from '../../src/auth/dpop/proof.ts';
import { normalizeHtu } from '../../src/auth/dpop/htu.ts';
import { type DpopKey, dpopKey, dpopProof } from '#test/dpop.ts';

const NOW = 1_800_000_000;
const rules = { now: () => NOW * 1000, iatWindowSec: 60 };
const URL_ = 'https://api.example.com/api/phone/v1/verification';
let key: DpopKey;
let other: DpopKey;

beforeAll(async () => {
  [key, other] = await Promise.all([dpopKey('ES256'), dpopKey('ES256')]);
});

const proof = (options: Parameters<typeof dpopProof>[3] = {}, htm = 'GET', htu = URL_) =>
  dpopProof(key, htm, htu, { nowSec: NOW, ...options });
/** A proof with the key's jwk under `header`, unsigned (its header is refused before the signature is read). */
const forged = (header: Record<string, unknown>) => {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ typ: 'dpop+jwt', jwk: key.publicJwk, ...header })}.${part({ htm: 'GET', htu: URL_, iat: NOW, jti: 'x' })}.c2ln`;
};
type Extra = { accessToken?: string; nonces?: DpopNonces | undefined };
const nonceRules = (mode: 'supported' | 'required', at = NOW) =>
  createDpopNonces({ mode, secret: 'nonce-secret-for-tests', now: () => at * 1000 });
const check = (value: string | undefined, extra: Extra = {}) =>
  verifyProof({ proof: value, method: 'GET', url: `${URL_}?phone_number=1`, ...extra }, rules);

describe('a DPoP proof', () => {
  it('is accepted with its key thumbprint, jti and iat', async () => {
    const result = await check(await proof());
    expect(result).toMatchObject({ ok: true, jkt: key.jkt, iat: NOW });
  });

  it('is accepted signed with EdDSA, RS256 or PS256, each with its own thumbprint', async () => {
    for (const alg of ['EdDSA', 'RS256', 'PS256'] as const) {
      const signer = await dpopKey(alg);
      const value = await dpopProof(signer, 'GET', URL_, { nowSec: NOW });
      expect(await check(value)).toMatchObject({ ok: true, jkt: signer.jkt });
    }
  });

  it('reads a repeated header the same way each time, and a changed one anew', async () => {
    const first = await proof();
    expect(await check(first)).toMatchObject({ ok: true, jkt: key.jkt });
    expect(await check(await proof())).toMatchObject({ ok: true, jkt: key.jkt });
    const swapped = `${(await dpopProof(other, 'GET', URL_, { nowSec: NOW })).split('.')[0]}${first.slice(first.indexOf('.'))}`;
    expect(await check(swapped)).toMatchObject({ ok: false, detail: 'signature invalid' });
  });

  it('goes with its access token (ath) and a nonce the server accepts', async () => {
    const nonces = nonceRules('required');
    const value = await proof({ token: 'tok', claims: { nonce: nonces?.current() } });
    expect(await check(value, { accessToken: 'tok', nonces })).toMatchObject({ ok: true });
  });

  it('is accepted without a nonce while nonces are only supported, and with any nonce while they are off', async () => {
    expect(await check(await proof(), { nonces: nonceRules('supported') })).toMatchObject({ ok: true });
    expect(await check(await proof({ claims: { nonce: 'anything' } }))).toMatchObject({ ok: true });
  });

  const refusals: Array<[string, () => Promise<string | undefined>, Extra, string]> = [
    ['missing', async () => undefined, {}, 'no DPoP proof'],
    ['too long', async () => 'a'.repeat(5000), {}, 'too long'],
    ['not a JWS', async () => 'not-a-jws', {}, 'malformed'],
    ['typ JWT', () => proof({ header: { typ: 'JWT' } }), {}, 'claim typ'],
    ['no jwk', () => proof({ header: { jwk: undefined } }), {}, 'malformed'],
    ['a private jwk', async () => proof({ header: { jwk: await exportJWK(key.privateKey) } }), {}, 'malformed'],
    ['signed by another key than its jwk', () => proof({ header: { jwk: other.publicJwk } }), {}, 'signature invalid'],
    ['another method', () => proof({}, 'POST'), {}, 'htm'],
    ['another path', () => proof({}, 'GET', 'https://api.example.com/api/email/v1/verification'), {}, 'htu'],
    ['another host', () => proof({}, 'GET', 'https://evil.example.com/api/phone/v1/verification'), {}, 'htu'],
    ['another scheme', () => proof({}, 'GET', URL_.replace('https:', 'http:')), {}, 'htu'],
    ['iat too old', () => proof({ nowSec: NOW - 61 }), {}, 'iat outside'],
    ['iat ahead', () => proof({ nowSec: NOW + 61 }), {}, 'iat outside'],
    ['no iat', () => proof({ claims: { iat: undefined } }), {}, 'iat missing'],
    ['no jti', () => proof({ claims: { jti: undefined } }), {}, 'jti missing'],
    ['ath of another token', () => proof({ token: 'other' }), { accessToken: 'tok' }, 'ath'],
    ['a jwk of another key type than its alg', async () => forged({ alg: 'EdDSA' }), {}, 'malformed'],
    [
      'a jwk whose own alg differs',
      () => proof({ header: { jwk: { ...key.publicJwk, alg: 'RS256' } } }),
      {},
      'malformed',
    ],
    ['a crit header', async () => forged({ alg: 'ES256', crit: ['exp'] }), {}, 'malformed'],
    ['an exp passed', () => proof({ claims: { exp: NOW - 1 } }), {}, 'claim exp'],
    ['an nbf ahead', () => proof({ claims: { nbf: NOW + 5 } }), {}, 'claim nbf'],
    ['no ath with a token', () => proof(), { accessToken: 'tok' }, 'ath'],
  ];
  for (const [what, make, extra, detail] of refusals) {
    it(`is refused as invalid_dpop_proof: ${what}`, async () => {
      const result = await check(await make(), extra);
      expect(result).toMatchObject({ ok: false, error: 'invalid_dpop_proof' });
      expect(result.ok ? '' : result.detail).toContain(detail);
    });
  }

  it('is refused with use_dpop_nonce without a nonce, or with one no longer accepted', async () => {
    expect(await check(await proof(), { nonces: nonceRules('required') })).toMatchObject({
      error: 'use_dpop_nonce',
      detail: 'nonce missing',
    });
    const old = nonceRules('required', NOW - 180)?.current();
    for (const mode of ['supported', 'required'] as const)
      expect(await check(await proof({ claims: { nonce: old } }), { nonces: nonceRules(mode) })).toMatchObject({
        error: 'use_dpop_nonce',
        detail: 'nonce stale or not ours',
      });
  });

  it('refuses alg none and HS256 whatever the header says', async () => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = part({ htm: 'GET', htu: URL_, iat: NOW, jti: 'x' });
    for (const alg of ['none', 'HS256']) {
      const forged = `${part({ alg, typ: 'dpop+jwt', jwk: key.publicJwk })}.${claims}.${alg === 'none' ? '' : 'c2ln'}`;
      expect(await check(forged)).toMatchObject({ ok: false, error: 'invalid_dpop_proof' });
    }
  });
});

describe('the DPoP proof parser, for any input', () => {
  it('never throws and refuses any string that is not a proof', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), jwsLike()), async (value) => {
        const result = await check(value);
        expect(result.ok).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('refuses a well-signed proof whose nonce is any other value, as use_dpop_nonce, and never throws', async () => {
    const nonces = nonceRules('supported');
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.jsonValue()), async (nonce) => {
        const result = await check(await proof({ claims: { nonce } }), { nonces });
        expect(result).toMatchObject({ ok: false, error: 'use_dpop_nonce' });
      }),
      { numRuns: 100 },
    );
  });

  it('refuses a valid proof with any one character of its header or claims changed', async () => {
    const valid = await proof();
    const signed = valid.lastIndexOf('.');
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: signed - 1 }), fc.constantFrom(...'AZaz09-_.'), async (at, char) => {
        fc.pre(valid[at] !== char);
        const changed = valid.slice(0, at) + char + valid.slice(at + 1);
        expect((await check(changed)).ok).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('compares htu without query or fragment, and with scheme and host in any case', () => {
    fc.assert(
      fc.property(fc.webQueryParameters(), fc.webFragments(), (query, fragment) => {
        expect(normalizeHtu(`${URL_}?${query}#${fragment}`)).toBe(normalizeHtu(URL_));
      }),
    );
    expect(normalizeHtu('HTTPS://API.Example.COM:443/api/phone/v1/verification')).toBe(normalizeHtu(URL_));
    expect(normalizeHtu('https://api.example.com/api/%7euser')).toBe(
      normalizeHtu('https://api.example.com/api/%7Euser'),
    );
    expect(normalizeHtu('ftp://api.example.com/')).toBeUndefined();
    expect(normalizeHtu('/relative')).toBeUndefined();
  });
});

/** Three base64url-ish segments, some decoding to JSON objects, as a fuzzer of the JWS shape. */
function jwsLike() {
  const segment = fc.oneof(
    fc.base64String().map((s) => s.replaceAll('=', '').replaceAll('+', '-').replaceAll('/', '_')),
    fc.jsonValue().map((value) => Buffer.from(JSON.stringify(value) ?? 'null').toString('base64url')),
    fc.constant(Buffer.from('{"alg":"ES256","typ":"dpop+jwt","jwk":{}}').toString('base64url')),
  );
  return fc.tuple(segment, segment, segment).map((parts) => parts.join('.'));
}
