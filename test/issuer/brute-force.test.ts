import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '#test/fake-clock.ts';
import { type Harness, startHarnessWithClient } from './harness.ts';

const clock = createFakeClock(Date.now());
let h: Harness;
let id: string;
let secret: string;

beforeAll(async () => {
  ({ h, id, secret } = await startHarnessWithClient(clock, ['email']));
});
afterAll(() => h.close());

/** A token request as the gateway forwards it: the client's address in X-Forwarded-For (loopback is a trusted proxy). */
async function tokenFrom(address: string, clientId: string, clientSecret: string) {
  const res = await fetch(`${h.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `203.0.113.250, ${address}` },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as Record<string, unknown>,
  };
}

describe('brute-force protection', () => {
  it('answers 429 with Retry-After once a client id has 10 failures, while the correct secret still succeeds elsewhere', async () => {
    for (let i = 0; i < 10; i++) expect((await tokenFrom('198.51.100.1', id, `guess-${i}`)).status).toBe(401);
    const throttled = await tokenFrom('198.51.100.1', id, 'guess-10');
    expect(throttled.status).toBe(429);
    expect(Number(throttled.retryAfter)).toBeGreaterThan(0);
    expect(throttled.body['error']).toBe('temporarily_unavailable');
    expect((await tokenFrom('198.51.100.2', id, 'guess-11')).status).toBe(429);
    expect((await tokenFrom('198.51.100.3', id, secret)).status).toBe(200);
  });

  it('answers 429 to an address that sprayed client ids, yet its correct credentials still succeed (one NAT, many clients)', async () => {
    for (let i = 0; i < 20; i++) expect((await tokenFrom('198.51.100.66', `cli_spray${i}`, 'x')).status).toBe(401);
    const refused = await tokenFrom('198.51.100.66', 'cli_spray20', 'x');
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    expect((await tokenFrom('198.51.100.66', id, secret)).status).toBe(200);
    expect((await tokenFrom('198.51.100.67', 'cli_spray0', 'x')).status).toBe(401);
  });

  it('forgets failures once the window has passed (fake clock, no sleeping)', async () => {
    expect((await tokenFrom('198.51.100.66', 'cli_spray0', 'x')).status).toBe(429);
    clock.advanceSec(61);
    expect((await tokenFrom('198.51.100.66', 'cli_spray0', 'x')).status).toBe(401);
    expect((await tokenFrom('198.51.100.66', id, secret)).status).toBe(200);
    expect((await tokenFrom('198.51.100.1', id, 'guess-again')).status).toBe(401);
  });

  it('logs failures with client id and address but never the secret tried', async () => {
    const logs = h.logs();
    expect(logs).toContain('client authentication failed');
    expect(logs).toContain('198.51.100.66');
    expect(logs).not.toContain('guess-3');
    expect(logs).not.toContain(secret);
  });

  it('never logs a secret sent in place of the client id (id and secret swapped, in the form or in Basic)', async () => {
    expect((await tokenFrom('198.51.100.90', secret, id)).status).toBe(401);
    const basic = await fetch(`${h.url}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${secret}:${id}`).toString('base64')}`,
        'x-forwarded-for': '198.51.100.91',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(basic.status).toBe(401);
    const logs = h.logs();
    expect(logs).toContain('198.51.100.91');
    expect(logs).not.toContain(secret.slice(0, 12));
    expect(logs).toContain('cli_spray0');
  });
});
