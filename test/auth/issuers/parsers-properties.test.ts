import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCOPES } from '#common';
import { mapClaims, mappedScopes } from '../../../src/auth/issuers/claim-mapping.ts';
import { readMetadata } from '../../../src/auth/issuers/discovery.ts';
import { unverifiedIssuer } from '../../../src/auth/issuers/unverified-issuer.ts';

/**
 * The parsers of untrusted input that external issuers add: the unverified `iss` of any token,
 * any claim set through a mapping, and any metadata document. None throws, whatever it is given.
 */

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'null').toString('base64url');
const segments = fc.oneof(
  fc.string(),
  fc.base64String().map((s) => s.replace(/=+$/, '')),
  fc.jsonValue().map(b64),
);

describe('reading the unverified iss', () => {
  it('never throws, and answers only a non-empty string of at most 1024 characters', () => {
    fc.assert(
      fc.property(fc.array(segments, { maxLength: 4 }), fc.string(), (parts, junk) => {
        for (const token of [parts.join('.'), junk]) {
          const iss = unverifiedIssuer(token);
          if (iss !== undefined) expect(iss.length).toBeGreaterThan(0);
          expect(iss === undefined || iss.length <= 1024).toBe(true);
        }
      }),
      { numRuns: 2_000 },
    );
  }, 60_000);

  it('reads back the iss of any payload object that carries one', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.string({ minLength: 1, maxLength: 200 }),
        (rest, iss) => {
          const token = `${b64({ alg: 'RS256' })}.${b64({ ...rest, iss })}.sig`;
          expect(unverifiedIssuer(token)).toBe(iss);
        },
      ),
      { numRuns: 500 },
    );
  }, 60_000);

  it('reads nothing from a payload that is not an object, or is not UTF-8', () => {
    expect(unverifiedIssuer(`x.${b64(['iss'])}.y`)).toBeUndefined();
    expect(unverifiedIssuer(`x.${Buffer.from([0xff, 0x7b]).toString('base64url')}.y`)).toBeUndefined();
    expect(unverifiedIssuer(`.${b64({ iss: 'a' })}.y`)).toBeUndefined();
  });
});

const rules = fc.record({
  claim: fc.constantFrom('scope', 'scp', 'roles'),
  format: fc.constantFrom('string' as const, 'list' as const),
  separator: fc.constantFrom(' ', ',', '+'),
  map: fc.option(fc.dictionary(fc.string(), fc.constantFrom(...SCOPES)), { nil: undefined }),
});

describe('mapping an external token’s claims', () => {
  it('never throws, and grants only tokengate scopes, each once', () => {
    fc.assert(
      fc.property(fc.jsonValue(), rules, (value, rule) => {
        const scopes = mappedScopes(value, rule);
        if (scopes === undefined) return;
        expect(new Set(scopes).size).toBe(scopes.length);
        for (const scope of scopes) expect(SCOPES).toContain(scope);
      }),
      { numRuns: 2_000 },
    );
  }, 60_000);

  it('never throws on any claim set, and accepts only string identities and a bounded lifetime', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), rules, (payload, rule) => {
        const mapping = { scope: rule, client: 'client_id', project: 'tenant' };
        const result = mapClaims(payload, mapping, 'partner', 3_600);
        if (!result.ok) return;
        expect(typeof result.token.clientId).toBe('string');
        expect(result.token.exp - result.token.iat).toBeLessThanOrEqual(3_600);
        expect(result.token.issuer).toBe('partner');
      }),
      { numRuns: 1_000 },
    );
  }, 60_000);

  it('maps a list claim through the map, and drops names it neither maps nor knows', () => {
    const rule = { format: 'list', separator: ' ', claim: 'scp', map: { 'api.address': 'address' } } as const;
    expect(mappedScopes(['api.address', 'address', 'admin', 'api.address'], rule)).toEqual(['address']);
    expect(mappedScopes('address', rule)).toBeUndefined();
    expect(mappedScopes(['phone', 7], { ...rule, map: undefined })).toBeUndefined();
    expect(mappedScopes('phone,email', { ...rule, format: 'string', separator: ',', map: undefined })).toEqual([
      'phone',
      'email',
    ]);
    // A map's keys are its own: an inherited name such as "constructor" grants nothing.
    expect(mappedScopes(['constructor', 'toString'], rule)).toEqual([]);
  });
});

describe('reading issuer metadata', () => {
  it('never throws, and takes keys only from a document naming the configured issuer', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.webUrl(), (body, jwks) => {
        const read = readMetadata(body, 'https://idp.test');
        if (typeof read !== 'string') expect((body as { issuer: unknown }).issuer).toBe('https://idp.test');
        const good = readMetadata({ issuer: 'https://idp.test', jwks_uri: jwks }, 'https://idp.test');
        expect(typeof good === 'string' || good.jwksUri.startsWith('http')).toBe(true);
      }),
      { numRuns: 1_000 },
    );
    expect(readMetadata({ issuer: 'https://evil.test', jwks_uri: 'https://evil.test/k' }, 'https://idp.test')).toBe(
      'metadata names another issuer',
    );
    expect(readMetadata({ issuer: 'https://idp.test', jwks_uri: 'file:///etc/passwd' }, 'https://idp.test')).toBe(
      'metadata has no http(s) jwks_uri',
    );
  }, 60_000);
});
