import { describe, expect, it } from 'vitest';
import { type AuthFailure, type AuthFailureKind, authFailureResponse } from '#auth';

function failure(kind: AuthFailureKind, extra: Partial<AuthFailure> = {}): AuthFailure {
  return { ok: false, kind, detail: 'kid k-secret-detail missing', ...extra };
}

describe('authFailureResponse: the one failure → HTTP mapping', () => {
  it('answers a missing credential with 401 1040 and a challenge without error', () => {
    const res = authFailureResponse(failure('credentials_missing'));
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="tokengate"');
    expect(res.body).toMatchObject({ error_code: '1040', success: false });
  });

  it('answers an invalid token with 401 1024 "Invalid bearer token" and error="invalid_token"', () => {
    const res = authFailureResponse(failure('invalid_token'));
    expect(res).toMatchObject({
      status: 401,
      body: { message: 'Invalid bearer token', error_code: '1024', success: false },
    });
    expect(res.headers['www-authenticate']).toBe(
      'Bearer realm="tokengate", error="invalid_token", error_description="Invalid bearer token"',
    );
  });

  it('answers a malformed request (several Authorization headers) with 400 1044 and error="invalid_request"', () => {
    const res = authFailureResponse(failure('invalid_request'));
    expect(res).toMatchObject({
      status: 400,
      body: { message: 'More than one Authorization header', error_code: '1044', success: false },
    });
    expect(res.headers['www-authenticate']).toBe(
      'Bearer realm="tokengate", error="invalid_request", error_description="More than one Authorization header"',
    );
  });

  it('answers a revoked token with 401 1024 "OAuth key has been revoked"', () => {
    const res = authFailureResponse(failure('token_revoked'));
    expect(res).toMatchObject({ status: 401, body: { message: 'OAuth key has been revoked', error_code: '1024' } });
    expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('answers an expired token with 401 1030 naming exp in UTC', () => {
    const expiredAt = Date.UTC(2026, 0, 15, 11, 45, 0) / 1000;
    const res = authFailureResponse(failure('token_expired', { expiredAt }));
    expect(res).toMatchObject({
      status: 401,
      body: { message: 'Token expired at 2026-01-15T11:45:00Z', error_code: '1030' },
    });
    expect(res.headers['www-authenticate']).toContain(
      'error="invalid_token", error_description="Token expired at 2026-01-15T11:45:00Z"',
    );
  });

  it('answers a missing scope with 401 1026 and error="insufficient_scope" naming the scopes needed', () => {
    const res = authFailureResponse(
      failure('insufficient_scope', { required: { scopes: ['phone', 'email'], match: 'all' } }),
    );
    expect(res).toMatchObject({ status: 401, body: { error_code: '1026' } });
    expect(res.headers['www-authenticate']).toMatch(
      /^Bearer realm="tokengate", error="insufficient_scope", error_description="[^"]+", scope="phone email"$/,
    );
  });

  it('answers claims that fail a route\'s rules with 403 1029 and error="insufficient_scope" without a scope', () => {
    const res = authFailureResponse(failure('insufficient_claims'));
    expect(res).toMatchObject({ status: 403, body: { error_code: '1029', success: false } });
    expect(res.headers['www-authenticate']).toBe(
      `Bearer realm="tokengate", error="insufficient_scope", error_description="The token's claims do not allow this endpoint"`,
    );
    const dpop = authFailureResponse(failure('insufficient_claims', { dpop: true }));
    expect(dpop.status).toBe(403);
    expect(dpop.headers['www-authenticate']).toMatch(
      /^DPoP realm="tokengate", algs="[^"]+", error="insufficient_scope", error_description="[^"]+"$/,
    );
  });

  it('answers unavailable keys and a stale revocation set with 503 1052 and 1053', () => {
    expect(authFailureResponse(failure('keys_unavailable'))).toMatchObject({
      status: 503,
      body: { error_code: '1052' },
    });
    expect(authFailureResponse(failure('revocations_stale'))).toMatchObject({
      status: 503,
      body: { error_code: '1053' },
    });
  });

  it('answers 503 with a challenge without error, so a client does not discard a token that may be good', () => {
    for (const kind of ['keys_unavailable', 'revocations_stale'] as const) {
      expect(authFailureResponse(failure(kind)).headers['www-authenticate']).toBe('Bearer realm="tokengate"');
    }
  });

  it('adds the route extra fields (autocomplete: completions: []) to the documented body', () => {
    const res = authFailureResponse(failure('invalid_token'), { completions: [] });
    expect(res.body).toEqual({ completions: [], message: 'Invalid bearer token', error_code: '1024', success: false });
  });

  it('answers a missing scope on a DPoP call with the DPoP challenge naming the scopes needed (RFC 9449 §7.1)', () => {
    const res = authFailureResponse(
      failure('insufficient_scope', { required: { scopes: ['phone', 'email'], match: 'all' }, dpop: true }),
    );
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error_code: '1026' });
    expect(res.headers['www-authenticate']).toMatch(
      /^DPoP realm="tokengate", algs="[^"]+", error="insufficient_scope", error_description="[^"]+", scope="phone email"$/,
    );
  });

  it('never copies the private detail into the body or the header', () => {
    const kinds: AuthFailureKind[] = [
      'credentials_missing',
      'invalid_token',
      'token_revoked',
      'token_expired',
      'insufficient_scope',
      'insufficient_claims',
    ];
    for (const kind of kinds) {
      const res = authFailureResponse(failure(kind, { expiredAt: 1, required: { scopes: ['address'], match: 'any' } }));
      expect(JSON.stringify(res)).not.toContain('k-secret-detail');
    }
  });
});
