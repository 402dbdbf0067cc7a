import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '#store';
import { createFakeClock } from '#test/fake-clock.ts';
import { type Harness, postForm, startHarness } from './harness.ts';

/**
 * Replica b never hears the store's change announcements (a lost notification, before its
 * connection comes back): only the store itself can tell it that a client was enabled again.
 */
const clock = createFakeClock(Date.now());
let a: Harness;
let b: Harness;

beforeAll(async () => {
  a = await startHarness({ clock });
  const deaf = new Proxy(a.store, {
    get(target, name) {
      if (name === 'onChange') return () => () => undefined;
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as Store;
  b = await startHarness({ clock, store: deaf, config: { issuer: a.config.issuer, audience: a.config.audience } });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

describe('a replica that missed an enable', () => {
  it('issues tokens to correct credentials at once and never answers them 429, checking the store before counting a failure', async () => {
    const { client, secret } = await a.client(['phone']);
    const form = { grant_type: 'client_credentials', client_id: client.clientId, client_secret: secret };
    await a.issuer.setClientEnabled(client.clientId, false);
    // b caches the client as disabled (it has heard the disable's revocation, not the enable to come).
    expect((await postForm(b.url, form)).status).toBe(401);
    await a.issuer.setClientEnabled(client.clientId, true);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await postForm(b.url, form)).status);
    expect(statuses).toEqual(statuses.map(() => 200));
  });

  it('still counts a wrong secret as a failure: 401, then 429 past the limit', async () => {
    const { client } = await a.client(['phone']);
    const form = { grant_type: 'client_credentials', client_id: client.clientId, client_secret: 'wrong' };
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await postForm(b.url, form)).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
  });
});
