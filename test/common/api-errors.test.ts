import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_ERRORS, type ApiErrorKind, apiError, oauthError } from '#common';

describe('the API error table', () => {
  it('gives the spec statuses and messages to the bearer codes', () => {
    expect(API_ERRORS.invalid_token).toEqual({ code: '1024', status: 401, message: 'Invalid bearer token' });
    expect(API_ERRORS.token_revoked).toEqual({ code: '1024', status: 401, message: 'OAuth key has been revoked' });
    expect(API_ERRORS.project_not_found).toEqual({
      code: '1025',
      status: 400,
      message: 'Project not found for bearer token',
    });
    expect(API_ERRORS.insufficient_scope.status).toBe(401);
    expect(API_ERRORS.token_expired).toMatchObject({ code: '1030', status: 401 });
  });

  it('renders 1030 with the expiry in UTC and keeps error_code a string', () => {
    const { status, body } = apiError('token_expired', { expiredAt: 1_767_225_600 });
    expect(status).toBe(401);
    expect(body).toEqual({ message: 'Token expired at 2026-01-01T00:00:00Z', error_code: '1030', success: false });
  });

  it('adds a route’s extra fields without letting them override the documented ones', () => {
    const { body } = apiError('invalid_token', { extra: { completions: [], success: true, error_code: 'x' } });
    expect(body).toEqual({ completions: [], message: 'Invalid bearer token', error_code: '1024', success: false });
  });

  it('gives every row an RFC 6749 §5.2 form: server_error for 500, temporarily_unavailable for other 5xx, else invalid_request', () => {
    for (const kind of Object.keys(API_ERRORS) as ApiErrorKind[]) {
      const { status, message } = API_ERRORS[kind];
      const expected = status === 500 ? 'server_error' : status >= 500 ? 'temporarily_unavailable' : 'invalid_request';
      expect(oauthError(kind)).toEqual({ status, body: { error: expected, error_description: message } });
      // RFC 6749 §5.2: error_description is %x20-21 / %x23-5B / %x5D-7E.
      expect(message).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
    }
    expect(oauthError('payload_too_large', { message: 'x' }).body.error_description).toBe('x');
  });

  it('is the table docs/errors.md documents, row for row', () => {
    const page = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
    const rows = new Set(
      page
        .split('\n')
        .filter((line) => /^\| `\d{4}` \|/.test(line))
        .map((line) => {
          const cells = line.split('|').map((c) => c.trim());
          return `${cells[1]?.replaceAll('`', '')} ${cells[2]} ${cells[3]?.replaceAll('`', '')}`;
        }),
    );
    const expected = Object.values(API_ERRORS).map((e) => `${e.code} ${e.status} ${e.message}`);
    expect([...rows].sort()).toEqual([...new Set(expected)].sort());
  });
});
