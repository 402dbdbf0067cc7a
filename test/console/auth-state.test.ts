import { describe, expect, it } from 'vitest';
import { createFakeClock } from '#test/fake-clock.ts';
import { LOGIN_FAILURE_LIMIT, LOGIN_WINDOW_MS, LoginLimiter } from '../../src/portal/auth/login-limiter.ts';

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
