import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '#test/fake-clock.ts';
import { NEXT_KEY_MIN_PUBLISHED_SEC } from '../../src/issuer/limits.ts';
import { FEED_TOKEN, type Harness, startHarness } from './harness.ts';

const clock = createFakeClock(Date.now());
let a: Harness;
let b: Harness;

beforeAll(async () => {
  a = await startHarness({ clock });
  b = await startHarness({ clock, store: a.store });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

interface FeedAnswer {
  cursor: number;
  entries: Array<Record<string, unknown>>;
  keys: { version: number; kids: string[] };
}

async function feed(h: Harness, query: string): Promise<{ status: number; body: FeedAnswer; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${h.url}/internal/revocations${query}`, {
    headers: { authorization: `Bearer ${FEED_TOKEN}` },
  });
  return { status: res.status, body: (await res.json()) as FeedAnswer, ms: performance.now() - started };
}

async function publishedKids(h: Harness): Promise<string[]> {
  const set = (await (await fetch(`${h.url}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> };
  return set.keys.map((k) => k.kid);
}

describe('key-set announcements on the revocation feed', () => {
  it('carries the published kids and a version beside cursor and entries, which keep the shape a previous gateway reads', async () => {
    await a.issuer.revokeToken('jti-beside-the-keys');
    const { body } = await feed(a, '?cursor=0');
    expect(Object.keys(body)).toEqual(['cursor', 'entries', 'keys']);
    expect(body.keys).toEqual({ version: expect.any(Number), kids: await publishedKids(a) });
    // A gateway of the previous version checks every entry's kind and ignores members it does not know.
    for (const entry of body.entries) expect(['jti', 'client']).toContain(entry['kind']);
  });

  it('answers a held poll at once when a rotation here changes the key set, with the new kids', async () => {
    const { body } = await feed(a, '?cursor=0');
    const pending = feed(a, `?cursor=${body.cursor}&wait=30&keys=${body.keys.version}`);
    clock.advanceSec(NEXT_KEY_MIN_PUBLISHED_SEC);
    const rotated = new Promise<{ kid: string }>((resolve) => setTimeout(() => resolve(a.issuer.rotateKeys()), 100));
    const answer = await pending;
    expect(answer.ms).toBeLessThan(1_000);
    expect(answer.body.entries).toEqual([]);
    expect(answer.body.keys.version).toBeGreaterThan(body.keys.version);
    // Answered as soon as the promotion is stored: the new next key (created after it) comes in a later answer.
    expect(answer.body.keys.kids).toContain((await rotated).kid);
    expect(await publishedKids(a)).toEqual(expect.arrayContaining(answer.body.keys.kids));
  });

  it('answers a held poll when the key set changes although its version did not grow (two rotations in one millisecond)', async () => {
    await a.issuer.rotateKeys({ now: true });
    const { body } = await feed(a, '?cursor=0');
    const pending = feed(a, `?cursor=${body.cursor}&wait=30&keys=${body.keys.version}`);
    const rotated = new Promise((resolve) => setTimeout(() => resolve(a.issuer.rotateKeys({ now: true })), 100));
    const answer = await pending;
    await rotated; // its new next key is created after the answer: let it land before the next test holds a poll
    expect(answer.ms).toBeLessThan(1_000);
    expect(answer.body.keys.version).toBe(body.keys.version);
    expect(answer.body.keys.kids).not.toEqual(body.keys.kids);
  });

  it('answers at once a gateway that saw an older version, and holds one that saw the current one', async () => {
    const { body } = await feed(a, '?cursor=0');
    const behind = await feed(a, `?cursor=${body.cursor}&wait=30&keys=${body.keys.version - 1}`);
    expect(behind.ms).toBeLessThan(1_000);
    expect(behind.body.keys).toEqual(body.keys);
    const current = await feed(a, `?cursor=${body.cursor}&wait=1&keys=${body.keys.version}`);
    expect(current.ms).toBeGreaterThanOrEqual(900);
  });

  it('answers a held poll on another replica as soon as the store announces the rotation to it', async () => {
    await b.issuer.listKeys();
    const { body } = await feed(b, '?cursor=0');
    const pending = feed(b, `?cursor=${body.cursor}&wait=30&keys=${body.keys.version}`);
    clock.advanceSec(NEXT_KEY_MIN_PUBLISHED_SEC);
    const { kid } = await a.issuer.rotateKeys();
    const answer = await pending;
    expect(answer.ms).toBeLessThan(1_000);
    expect(answer.body.keys.kids).toContain(kid);
  });

  it('refuses a malformed keys version with 400', async () => {
    expect((await feed(a, '?cursor=0&keys=-1')).status).toBe(400);
    expect((await feed(a, '?cursor=0&keys=v1')).status).toBe(400);
  });
});
