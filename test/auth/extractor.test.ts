import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractBearer } from '#auth';

const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln';

describe('extractBearer (RFC 6750 §2.1, header only)', () => {
  it('returns the token of "Bearer <token>" whatever the case of the scheme', () => {
    expect(extractBearer(`Bearer ${token}`)).toBe(token);
    expect(extractBearer(`bearer ${token}`)).toBe(token);
    expect(extractBearer(`BEARER ${token}`)).toBe(token);
    expect(extractBearer(`bEaReR ${token}`)).toBe(token);
  });

  it('returns the token after one or more spaces (RFC 6750 §2.1: "Bearer" 1*SP b64token)', () => {
    expect(extractBearer(`Bearer  ${token}`)).toBe(token);
    expect(extractBearer(`bearer     ${token}`)).toBe(token);
    expect(extractBearer(`Bearer  ${token}`, 8192, false)).toBe(token);
  });

  it('accepts every b64token character including trailing padding', () => {
    expect(extractBearer('Bearer aZ09-._~+/==')).toBe('aZ09-._~+/==');
  });

  it('reports credentials_missing when no header is sent', () => {
    expect(extractBearer(undefined)).toMatchObject({ ok: false, kind: 'credentials_missing' });
    expect(extractBearer('')).toMatchObject({ ok: false, kind: 'credentials_missing' });
  });

  it('treats another scheme as no bearer credentials (RFC 6750 §3.1)', () => {
    expect(extractBearer('Basic dXNlcjpwYXNz')).toMatchObject({ kind: 'credentials_missing' });
    // Schemes one character away from "bearer", control and Latin-1 characters included (the check ignores case only).
    for (const scheme of [
      'Bearez',
      'Beare',
      'Bearer'.replace('a', '\u0001'),
      'B\u0005arer',
      'Bear\u00d2r',
      'BEAR\u0012R',
    ]) {
      expect(extractBearer(`${scheme} ${token}`)).toMatchObject({ kind: 'credentials_missing' });
    }
  });

  it.each([
    ['Bearer', 'no token'],
    ['Bearer ', 'empty token'],
    ['Bearer    ', 'only spaces'],
    [`Bearer\t${token}`, 'a tab'],
    [`Bearer \t${token}`, 'a space then a tab'],
    [`Bearer ${token} `, 'trailing space'],
    [`Bearer ${token} extra`, 'two tokens'],
    ['Bearer a=b', 'padding in the middle'],
    ['Bearer tok"en', 'a quote'],
    [`Bearertoken`, 'no separator'],
  ])('rejects a malformed Bearer header as invalid_token (%s: %s)', (header) => {
    expect(extractBearer(header)).toMatchObject({ ok: false, kind: 'invalid_token' });
  });

  it('rejects a token longer than the bound before looking at it', () => {
    expect(extractBearer(`Bearer ${'a'.repeat(9000)}`)).toMatchObject({ kind: 'invalid_token' });
    expect(extractBearer(`Bearer ${'a'.repeat(100)}`, 50)).toMatchObject({ kind: 'invalid_token' });
  });

  it('accepts a token of exactly the bound and refuses one character more', () => {
    expect(extractBearer(`Bearer ${'a'.repeat(50)}`, 50)).toBe('a'.repeat(50));
    expect(extractBearer(`Bearer ${'a'.repeat(51)}`, 50)).toMatchObject({
      kind: 'invalid_token',
      detail: 'bearer token too long',
    });
  });

  it('bounds the token, not the spaces before it', () => {
    expect(extractBearer(`Bearer     ${'a'.repeat(50)}`, 50)).toBe('a'.repeat(50));
    expect(extractBearer(`Bearer     ${'a'.repeat(51)}`, 50)).toMatchObject({ detail: 'bearer token too long' });
  });
});

/**
 * What RFC 6750 §2.1 and §3.1 say of a header value, written as plainly as possible: the
 * reference the extractor's single scan must agree with.
 */
function reference(header: string, maxLength: number, checkAlphabet: boolean): string {
  if (header === '' || !/^bearer/i.test(header)) return 'credentials_missing';
  const parts = /^bearer( +)(.*)$/is.exec(header);
  const value = parts?.[2] ?? '';
  if (value === '' || value.length > maxLength) return 'invalid_token';
  if (checkAlphabet && !/^[A-Za-z0-9\-._~+/]+=*$/.test(value)) return 'invalid_token';
  return `token:${value}`;
}

function outcome(result: ReturnType<typeof extractBearer>): string {
  return typeof result === 'string' ? `token:${result}` : result.kind;
}

/** Headers near the boundaries: scheme spellings, separators and token characters that matter. */
const scheme = fc.constantFrom('Bearer', 'bearer', 'BEARER', 'bEaReR', 'Bearez', 'Beare', 'Basic', 'Bearer\u00e9', '');
const separator = fc.string({ unit: fc.constantFrom(' ', '\t', '\u00a0', 'x'), maxLength: 4 });
const tokenText = fc.string({
  unit: fc.constantFrom('a', 'Z', '0', '-', '.', '_', '~', '+', '/', '=', ' ', '"', ',', '\t', '\u00e9', '\n'),
  maxLength: 12,
});
const header = fc.tuple(scheme, separator, tokenText).map(([s, sep, t]) => s + sep + t);

describe('extractBearer against the RFC 6750 reference (property-based)', () => {
  it('returns the token of "Bearer", any number of spaces and any b64token, whatever the scheme case', () => {
    const b64token = fc.stringMatching(/^[A-Za-z0-9\-._~+/]{1,40}={0,2}$/);
    const spelling = fc.stringMatching(/^[Bb][Ee][Aa][Rr][Ee][Rr]$/);
    fc.assert(
      fc.property(spelling, fc.integer({ min: 1, max: 20 }), b64token, fc.boolean(), (s, spaces, t, alphabet) => {
        expect(extractBearer(s + ' '.repeat(spaces) + t, 8192, alphabet)).toBe(t);
      }),
    );
  });

  it('agrees with the reference on headers built near the boundaries, with and without the alphabet check', () => {
    fc.assert(
      fc.property(header, fc.integer({ min: 1, max: 10 }), fc.boolean(), (h, max, alphabet) => {
        expect(outcome(extractBearer(h, max, alphabet))).toBe(reference(h, max, alphabet));
      }),
      { numRuns: 2_000 },
    );
  });

  it('agrees with the reference on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' })), fc.boolean(), (h, alphabet) => {
        expect(outcome(extractBearer(h, 8192, alphabet))).toBe(reference(h, 8192, alphabet));
      }),
      { numRuns: 2_000 },
    );
  });

  it('never returns a token with a space, a tab or a line break in it when it checks the alphabet', () => {
    fc.assert(
      fc.property(header, (h) => {
        const result = extractBearer(h);
        if (typeof result === 'string') expect(result).not.toMatch(/[\s]/);
      }),
    );
  });
});
