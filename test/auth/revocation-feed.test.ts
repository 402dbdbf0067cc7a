import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '#common';
import { createRevocationFeedClient, createRevocationSet, type RevocationFeedEvent, type VerifiedToken } from '#auth';
import { createFakeClock } from '#test/fake-clock.ts';
import { startFeedServer } from '#test/feed-server.ts';
import { until } from '#test/until.ts';

const FEED_TOKEN = 'feed-secret-token';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function token(jti: string): VerifiedToken {
  return { sub: 'c1', clientId: 'c1', projectId: 'p1', scopes: [], jti, iat: 1, exp: 2 };
}

async function fixture(waitSec = 5, pageSize?: number) {
  const server = await startFeedServer(FEED_TOKEN, undefined, pageSize);
  const clock = createFakeClock();
  const set = createRevocationSet({ clock, maxStalenessSec: 30 });
  const events: RevocationFeedEvent[] = [];
  const announced: string[][] = [];
  const client = createRevocationFeedClient({
    url: server.url,
    token: FEED_TOKEN,
    set,
    clock,
    waitSec,
    maxBackoffMs: 20,
    onEvent: (e) => events.push(e),
    onKeys: (kids) => announced.push([...kids]),
  });
  cleanups.push(
    () => client.stop(),
    () => server.close(),
  );
  const expiresAt = clock.nowSec() + 3600;
  return { server, clock, set, client, events, announced, expiresAt };
}

describe('revocation feed client', () => {
  it('resolves start() after a first sync that asks for no hold, with the feed token and cursor 0', async () => {
    const f = await fixture();
    f.server.revoke({ kind: 'jti', value: 'early', issuedBefore: null, expiresAt: f.expiresAt });
    await f.client.start();
    expect(f.set.isRevoked(token('early'))).toBe(true);
    expect(f.set.usable()).toBe(true);
    expect(f.server.requests[0]).toEqual({ cursor: '0', wait: '0', authorization: `Bearer ${FEED_TOKEN}` });
    expect(f.client.status()).toEqual({ cursor: 1, lastError: null });
  });

  it('resolves start() only once a paged backlog is applied in full, so a gateway is never ready with part of the set', async () => {
    const f = await fixture(5, 2);
    for (const jti of ['a', 'b', 'c', 'd', 'e'])
      f.server.revoke({ kind: 'jti', value: jti, issuedBefore: null, expiresAt: f.expiresAt });
    await f.client.start();
    expect(['a', 'b', 'c', 'd', 'e'].filter((jti) => f.set.isRevoked(token(jti)))).toEqual(['a', 'b', 'c', 'd', 'e']);
    // Pages of two at cursors 0, 2 and 4, then an empty one: caught up. None of them held.
    expect(f.server.requests.slice(0, 4).map((r) => [r.cursor, r.wait])).toEqual([
      ['0', '0'],
      ['2', '0'],
      ['4', '0'],
      ['5', '0'],
    ]);
  });

  it('enforces a revocation recorded during a held long poll in under a second', async () => {
    const f = await fixture(20);
    await f.client.start();
    await until(() => f.server.requests.length >= 2, 'the feed holds the long poll');
    const started = performance.now();
    f.server.revoke({ kind: 'jti', value: 'late', issuedBefore: null, expiresAt: f.expiresAt });
    while (!f.set.isRevoked(token('late'))) {
      if (performance.now() - started > 1000) throw new Error('revocation not enforced within 1 s');
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(performance.now() - started).toBeLessThan(1000);
    expect(f.server.requests[1]).toMatchObject({ cursor: '0', wait: '20' });
  });

  it('counts staleness from the latest sync, not the first: a set past the bound is fresh again after the next answer', async () => {
    const f = await fixture();
    await f.client.start();
    f.clock.advanceSec(31);
    expect(f.set.usable()).toBe(false);
    f.server.revoke({ kind: 'jti', value: 'wakes-the-poll', issuedBefore: null, expiresAt: f.expiresAt });
    while (!f.set.isRevoked(token('wakes-the-poll'))) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(f.set.usable()).toBe(true);
    expect(f.set.status()).toMatchObject({ stale: false, lagSec: 0 });
  });

  it('keeps the last set and retries when the feed fails, reporting the error', async () => {
    const f = await fixture();
    f.server.revoke({ kind: 'jti', value: 'kept', issuedBefore: null, expiresAt: f.expiresAt });
    await f.client.start();
    f.server.failNext(3);
    f.server.revoke({ kind: 'jti', value: 'after-outage', issuedBefore: null, expiresAt: f.expiresAt });
    while (!f.set.isRevoked(token('after-outage'))) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(f.set.isRevoked(token('kept'))).toBe(true);
    expect(f.events.filter((e) => e.type === 'sync_failed')).toHaveLength(3);
    expect(f.events).toContainEqual({ type: 'sync_failed', reason: 'revocation feed answered HTTP 500' });
  });

  it('treats a malformed answer as a failed sync and keeps the set', async () => {
    const f = await fixture();
    f.server.rawNext(JSON.stringify({ cursor: -1, entries: [] }));
    const started = f.client.start();
    await started;
    expect(f.events[0]).toEqual({ type: 'sync_failed', reason: 'feed cursor is not a non-negative integer' });
  });

  it('reports staleness once the feed has been unreachable longer than the bound (fail-closed)', async () => {
    const f = await fixture();
    await f.client.start();
    f.server.failNext(1_000_000);
    f.clock.advanceSec(31);
    expect(f.set.status()).toMatchObject({ stale: true, lagSec: 31 });
    expect(f.set.usable()).toBe(false);
  });

  it('logs failures with a reason but never the feed credential', async () => {
    const server = await startFeedServer('the-real-feed-token');
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const set = createRevocationSet({ clock: createFakeClock() });
    const client = createRevocationFeedClient({
      url: server.url,
      token: FEED_TOKEN,
      set,
      log: createLogger({ level: 'info', destination }),
      maxBackoffMs: 10,
    });
    cleanups.push(
      () => client.stop(),
      () => server.close(),
    );
    void client.start().catch(() => undefined);
    while (lines.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(lines.join('')).toContain('revocation feed answered HTTP 401');
    expect(lines.join('')).not.toContain(FEED_TOKEN);
  });

  it('never logs or reports a feed token that cannot be sent as a header (a line break in it), naming the problem instead', async () => {
    const unsendable = 'feed-secret-first-line\nfeed-secret-second-line';
    const server = await startFeedServer(unsendable);
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const events: RevocationFeedEvent[] = [];
    const client = createRevocationFeedClient({
      url: server.url,
      token: unsendable,
      set: createRevocationSet({ clock: createFakeClock() }),
      log: createLogger({ level: 'info', destination }),
      maxBackoffMs: 10,
      onEvent: (e) => events.push(e),
    });
    cleanups.push(
      () => client.stop(),
      () => server.close(),
    );
    void client.start().catch(() => undefined);
    while (lines.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    const reported = [lines.join(''), JSON.stringify(events), JSON.stringify(client.status())].join('');
    expect(reported).toContain('feed token cannot be sent');
    expect(reported).not.toContain('feed-secret');
    expect(server.requests).toHaveLength(0);
  });

  it('hands the kids the issuer announces to onKeys, and sends back the latest version it saw', async () => {
    const f = await fixture(20);
    f.server.announceKeys(7, ['k1', 'k2']);
    await f.client.start();
    expect(f.announced).toEqual([['k1', 'k2']]);
    expect(f.server.requests[0]?.keys).toBeUndefined();
    const started = performance.now();
    f.server.announceKeys(9, ['k1', 'k2', 'k3']);
    await expect.poll(() => f.announced.at(-1), { timeout: 1_000 }).toEqual(['k1', 'k2', 'k3']);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(f.server.requests[1]).toMatchObject({ wait: '20', keys: '7' });
    // A replica that has not reloaded yet answers with an older version: the client keeps the newest.
    await expect.poll(() => f.server.requests.length).toBe(3);
    f.server.announceKeys(8, ['k1', 'k2']);
    await expect.poll(() => f.server.requests.length).toBe(4);
    expect(f.announced.at(-1)).toEqual(['k1', 'k2']);
    expect(f.server.requests[3]?.keys).toBe('9');
  });

  it('ignores a malformed key announcement without failing the sync, and reads an answer without one', async () => {
    const f = await fixture();
    f.server.rawNext(JSON.stringify({ cursor: 0, entries: [], keys: { version: 'v2', kids: 'k1' } }));
    await f.client.start();
    expect(f.events[0]).toEqual({ type: 'sync_ok', entries: 0, cursor: 0 });
    expect(f.announced).toEqual([]);
  });

  it('rejects start() when stopped before the first sync', async () => {
    const f = await fixture();
    f.server.failNext(1_000_000);
    const started = f.client.start();
    f.client.stop();
    await expect(started).rejects.toThrow('stopped');
  });
});
