import { validateHeaderValue } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claimHeaderValue, MAX_CLAIM_HEADER_LENGTH } from '../../../src/gateway/proxy/passes/claim-value.ts';
import { compileClaimRules } from '../../../src/gateway/routing/claim-rules.ts';

/** Every code unit, lone surrogates included: what a token's JSON can carry. */
const anyString = fc.string({ unit: 'binary', maxLength: 200 });
const anyJson = fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 });

/** A field value Node sends as it is and no parser splits: visible ASCII only (no space, CR, LF or NUL). */
function expectOneHeaderValue(value: string): void {
  expect(() => validateHeaderValue('x-claim', value)).not.toThrow();
  expect(value).toMatch(/^[\x21-\x7e]*$/);
  expect(value.length).toBeLessThanOrEqual(MAX_CLAIM_HEADER_LENGTH);
}

describe('the claim header encoding', () => {
  it('turns any claim into no header or one valid header value', () => {
    fc.assert(
      fc.property(anyJson, (claim) => {
        const value = claimHeaderValue(claim);
        if (value !== undefined) expectOneHeaderValue(value);
      }),
      { numRuns: 2_000 },
    );
  });

  it('gives any string one value without a comma, which percent-decodes to the string', () => {
    fc.assert(
      fc.property(anyString, (claim) => {
        const value = claimHeaderValue(claim) as string;
        expectOneHeaderValue(value);
        expect(value).not.toContain(',');
        expect(decodeURIComponent(value)).toBe(claim.toWellFormed());
      }),
      { numRuns: 2_000 },
    );
  });

  it('gives a list of scalars one element per member, split by commas', () => {
    const scalar = fc.oneof(anyString, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean());
    fc.assert(
      fc.property(fc.array(scalar, { minLength: 1, maxLength: 10 }), (claim) => {
        const value = claimHeaderValue(claim) as string;
        expectOneHeaderValue(value);
        const texts = claim.map((member) =>
          typeof member === 'string' ? member.toWellFormed() : JSON.stringify(member),
        );
        expect(value.split(',').map(decodeURIComponent)).toEqual(texts);
      }),
    );
  });

  it.each([
    ['a plain string', 'acme', 'acme'],
    ['an email address', 'ops@acme.example', 'ops@acme.example'],
    ['CR LF and a header', 'a\r\nx-admin: 1', 'a%0D%0Ax-admin:%201'],
    ['a comma', 'Acme, Inc.', 'Acme%2C%20Inc.'],
    ['a percent sign', '100%', '100%25'],
    ['quotes and parentheses', `"o'(k)*"`, '%22o%27%28k%29%2A%22'],
    ['non-ASCII', 'Zürich', 'Z%C3%BCrich'],
    ['a number', 42, '42'],
    ['a boolean', true, 'true'],
    ['a list', ['admin', 'a,b', 3], 'admin,a%2Cb,3'],
    ['an object', { a: [1] }, '%7B%22a%22:%5B1%5D%7D'],
    ['a list holding a list', [['x']], '%5B%5B%22x%22%5D%5D'],
  ])('encodes %s', (_, claim, expected) => {
    expect(claimHeaderValue(claim)).toBe(expected);
  });

  it('sends nothing for an absent, null or empty list claim, or one too long once encoded', () => {
    expect(claimHeaderValue(undefined)).toBeUndefined();
    expect(claimHeaderValue(null)).toBeUndefined();
    expect(claimHeaderValue([])).toBeUndefined();
    expect(claimHeaderValue('é'.repeat(700))).toBeUndefined();
    expect(claimHeaderValue('a'.repeat(MAX_CLAIM_HEADER_LENGTH))).toHaveLength(MAX_CLAIM_HEADER_LENGTH);
  });
});

describe('compiled claim rules', () => {
  const check = compileClaimRules({
    tenant: 'acme',
    level: { oneOf: [1, 2] },
    roles: { contains: 'admin' },
    flag: { equals: true },
  });
  const good = { tenant: 'acme', level: 2, roles: ['admin'], flag: true };

  it('passes claims that meet every rule and names the first that fails', () => {
    expect(check?.(good)).toBeUndefined();
    expect(check?.({ ...good, tenant: 'globex' })).toBe('tenant');
    expect(check?.({ ...good, level: '2' })).toBe('level');
    expect(check?.({ ...good, roles: 'admin' })).toBe('roles');
    expect(check?.({ ...good, flag: 'true' })).toBe('flag');
    expect(check?.(undefined)).toBe('tenant');
  });

  it('reads only the token’s own claims, never the prototype', () => {
    const proto = compileClaimRules({ constructor: { oneOf: ['x'] }, toString: { contains: 'x' } });
    expect(proto?.({})).toBe('constructor');
    expect(proto?.(JSON.parse('{"__proto__": {"toString": ["x"]}, "constructor": "x"}'))).toBe('toString');
  });

  it('compiles a route without rules to nothing', () => {
    expect(compileClaimRules(undefined)).toBeUndefined();
    expect(compileClaimRules({})).toBeUndefined();
  });

  it('never throws on any claims a token can carry', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), anyJson), (claims) => {
        expect(['tenant', 'level', 'roles', 'flag', undefined]).toContain(check?.({ ...claims }));
      }),
    );
  });
});
