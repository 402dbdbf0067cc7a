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
    [`Bearer  ${token}`, 'two spaces'],
    [`Bearer\t${token}`, 'a tab'],
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
});
