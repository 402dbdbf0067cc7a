import { describe, expect, it } from 'vitest';
import { createFakeClock } from '#test/fake-clock.ts';
import { LOGIN_FAILURE_LIMIT, LOGIN_WINDOW_MS, LoginLimiter } from '../../src/portal/auth/login-limiter.ts';
import { DEFAULT_SESSION_TTL_MS, SessionStore } from '../../src/portal/auth/sessions.ts';

describe('portal sessions', () => {
  it('gives each session a random 256-bit id and CSRF token, both base64url', () => {
    const store = new SessionStore(createFakeClock(), DEFAULT_SESSION_TTL_MS);
    const a = store.create();
    const b = store.create();
    for (const value of [a.id, a.csrfToken, b.id]) expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([a.id, a.csrfToken, b.id, b.csrfToken]).size).toBe(4);
  });

  it('forgets a session once 8 hours have passed since sign-in', () => {
    const clock = createFakeClock();
    const store = new SessionStore(clock, DEFAULT_SESSION_TTL_MS);
    const session = store.create();
    clock.advance(DEFAULT_SESSION_TTL_MS - 1);
    expect(store.get(session.id)).toBe(session);
    clock.advance(1);
    expect(store.get(session.id)).toBeUndefined();
  });

  it('finds nothing for a missing, unknown or oversized id, nor after sign-out', () => {
    const store = new SessionStore(createFakeClock(), DEFAULT_SESSION_TTL_MS);
    const session = store.create();
    expect(store.get(undefined)).toBeUndefined();
    expect(store.get('x'.repeat(65))).toBeUndefined();
    expect(store.get(`${session.id}x`)).toBeUndefined();
    store.delete(session.id);
    expect(store.get(session.id)).toBeUndefined();
  });
});

describe('portal sign-in rate limit', () => {
  it('locks an address out after the fifth failure until the window ends, and not other addresses', () => {
    const clock = createFakeClock();
    const limiter = new LoginLimiter(clock);
    for (let i = 0; i < LOGIN_FAILURE_LIMIT - 1; i++) limiter.recordFailure('10.0.0.1');
    expect(limiter.retryAfterMs('10.0.0.1')).toBe(0);
    limiter.recordFailure('10.0.0.1');
    expect(limiter.retryAfterMs('10.0.0.1')).toBe(LOGIN_WINDOW_MS);
    expect(limiter.retryAfterMs('10.0.0.2')).toBe(0);
    clock.advance(LOGIN_WINDOW_MS - 1000);
    expect(limiter.retryAfterMs('10.0.0.1')).toBe(1000);
    clock.advance(1000);
    expect(limiter.retryAfterMs('10.0.0.1')).toBe(0);
  });
});
