import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createIssuer } from '#issuer';
import type { Store } from '#store';
import { createFakeClock } from '#test/fake-clock.ts';
import { FEED_TOKEN, type Harness, logSink, postForm, startHarness, verdictOf } from './harness.ts';

const clock = createFakeClock(Date.now());
let a: Harness;
let b: Harness;

beforeAll(async () => {
  a = await startHarness({ clock });
  // One deployment: both replicas sign as the same issuer, for the same audience.
  b = await startHarness({ clock, store: a.store, config: { issuer: a.config.issuer, audience: a.config.audience } });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

describe('several issuer replicas on one store', () => {
  it('refuses a client at once on every replica when one replica disables it', async () => {
    const { client, secret } = await a.client(['email']);
    const form = { grant_type: 'client_credentials', client_id: client.clientId, client_secret: secret };
    expect((await postForm(b.url, form)).status).toBe(200); // b now caches the client record
    await a.issuer.setClientEnabled(client.clientId, false);
    await vi.waitFor(() =>
      expect(
        b.issuer.revocationChecker.isRevoked({
          clientId: client.clientId,
          iat: clock.nowSec(),
          jti: 'x',
          sub: client.clientId,
          projectId: '',
          scopes: [],
          exp: 0,
        }),
      ).toBe(true),
    );
    expect((await postForm(b.url, form)).status).toBe(401);
  });

  it('revokes a token issued by either replica between a re-enable and a second disable, all within one second', async () => {
    const second = clock.nowSec();
    for (const issuing of [a, b]) {
      const { client, secret } = await a.client(['phone']);
      const form = { grant_type: 'client_credentials', client_id: client.clientId, client_secret: secret };
      expect((await postForm(b.url, form)).status).toBe(200); // b caches the client record
      await a.issuer.setClientEnabled(client.clientId, false);
      await a.issuer.setClientEnabled(client.clientId, true);
      // b may still hold the disabled record for a moment: it answers 401 until it reads the enable.
      const issued = await vi.waitFor(async () => {
        const res = await postForm(issuing.url, form);
        expect(res.status).toBe(200);
        return String(res.json['access_token']);
      });
      expect(await verdictOf(a, issued, clock)).toBe('ok');
      await a.issuer.setClientEnabled(client.clientId, false);
      expect(clock.nowSec()).toBe(second);
      for (const replica of [a, b])
        await vi.waitFor(async () => expect(await verdictOf(replica, issued, clock)).toBe('token_revoked'));
      for (const replica of [a, b]) expect((await postForm(replica.url, form)).status).toBe(401);
    }
  });

  it('answers pending feed long-polls at once when the issuer closes', async () => {
    const replica = await startHarness({ clock, store: a.store });
    const started = performance.now();
    const pending = fetch(`${replica.url}/internal/revocations?cursor=999999&wait=30`, {
      headers: { authorization: `Bearer ${FEED_TOKEN}` },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await replica.issuer.close();
    const res = await pending;
    expect(await res.json()).toMatchObject({ cursor: 999999, entries: [] });
    expect(performance.now() - started).toBeLessThan(1000);
    await replica.close();
  });
});

describe('background work', () => {
  it('reloads keys every 10 s and prunes expired revocations every minute', async () => {
    const calls: string[] = [];
    const counting = new Proxy(a.store, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.push(String(name));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as Store;
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const issuer = await createIssuer({ store: counting, log: logSink().log, clock, config: { ...a.config } });
      calls.length = 0;
      await vi.advanceTimersByTimeAsync(60_000);
      expect(calls.filter((c) => c === 'listSigningKeys').length).toBe(6);
      expect(calls.filter((c) => c === 'pruneRevocations').length).toBe(1);
      await issuer.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
