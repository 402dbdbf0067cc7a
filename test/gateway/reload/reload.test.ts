import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '#gateway';
import { type FeedServer, startFeedServer } from '#test/feed-server.ts';
import { startJwksServer } from '#test/jwks-server.ts';
import { bearer, createTestKey, createTokenKit } from '#test/tokens.ts';
import { type Engine, ENGINES } from '../support/engines.ts';
import { type Harness, startHarness } from '../support/harness.ts';

let h: Harness | undefined;
let dir: string | undefined;
afterEach(async () => {
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  h = undefined;
});

/** The fixture's key-set line (an environment reference, replaced in the copy by some tests). */
const JWKS_LINE = ['jwksUrl: $', '{JWKS_URL}'].join('');
/** The fixture's feed URL (an environment reference): pointing it elsewhere builds a new verifier. */
const FEED_URL_REF = ['"$', '{FEED_URL}"'].join('');

/**
 * How long the feeds hold a poll at most: the harness's feed (the running verifier's), and the
 * feeds a test points a new configuration at. The checks that no client is left polling a feed
 * wait for more polls of another one, over more than the longest hold of the feed watched.
 */
const RUNNING_FEED_HOLD_SEC = 1;
const NEW_FEED_HOLD_SEC = 0.5;

/** A gateway on a temporary copy of this folder's gateway.yaml, which the test then edits. */
async function startOnCopy(watch: boolean, watchFile = true, engine?: Engine): Promise<{ h: Harness; file: string }> {
  dir = await mkdtemp(join(tmpdir(), 'tg-reload-'));
  const file = join(dir, 'gateway.yaml');
  await copyFile(join(import.meta.dirname, 'gateway.yaml'), file);
  h = await startHarness(import.meta.dirname, {
    file,
    watch,
    watchFile,
    feedHoldSec: RUNNING_FEED_HOLD_SEC,
    ...(engine ? { engine } : {}),
  });
  return { h, file };
}

/** A feed for a new configuration to point at. */
const startNewFeed = (token: string) => startFeedServer(token, NEW_FEED_HOLD_SEC);

async function addRoute(file: string, path: string): Promise<void> {
  await writeFile(file, `${await readFile(file, 'utf8')}  - { path: ${path}, auth: none }\n`);
}

async function statusOf(harness: Harness, path: string): Promise<number> {
  const res = await harness.fetch(path);
  await res.arrayBuffer();
  return res.status;
}

/** Polls (bounded) until the path answers `status`: reloads happen in the background. */
async function eventually(harness: Harness, path: string, status: number): Promise<number> {
  let last = 0;
  for (let i = 0; i < 100; i++) {
    last = await statusOf(harness, path);
    if (last === status) return last;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return last;
}

/** Waits (bounded, generously) for something the gateway does in the background. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1_500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  if (!condition()) throw new Error(`timed out waiting until ${what}`);
}

/** Lets the running feed client poll `n` more times: time in which a leaked client would poll too. */
async function pollsLater(feed: FeedServer, n: number): Promise<void> {
  const target = feed.requests.length + n;
  await until(() => feed.requests.length >= target, `the running feed client polled ${n} more times`);
}

/**
 * A refused reload: the old routes still answer, and the new config's feed gets no polls while the
 * running client polls twice (at least RUNNING_FEED_HOLD_SEC, past a held poll on the new feed).
 */
async function expectOldConfigOnly(h: Harness, newFeed: FeedServer): Promise<void> {
  expect(await statusOf(h, '/api/first')).toBe(200);
  const polls = newFeed.requests.length;
  await pollsLater(h.feed, 2);
  expect(newFeed.requests.length).toBe(polls);
}

describe('configuration reload', () => {
  it('applies a changed file on SIGHUP', async () => {
    const { h, file } = await startOnCopy(true, false);
    expect(await statusOf(h, '/api/second')).toBe(404);
    await addRoute(file, '/api/second');
    process.kill(process.pid, 'SIGHUP');
    expect(await eventually(h, '/api/second', 200)).toBe(200);
  });

  it('applies a changed file when the file changes, without a signal', async () => {
    const { h, file } = await startOnCopy(true);
    await addRoute(file, '/api/third');
    expect(await eventually(h, '/api/third', 200)).toBe(200);
  });

  it('keeps the running configuration and logs why when the new file is invalid', async () => {
    const { h, file } = await startOnCopy(false);
    await writeFile(file, `${await readFile(file, 'utf8')}  - { path: /api/x, auth: bearer, scopes: [adress] }\n`);
    const result = await h.gateway.reload();
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual(['routes[1].scopes[0]: unknown scope "adress" (line 11)']);
    expect(await statusOf(h, '/api/first')).toBe(200);
    const refused = h.logs
      .entries()
      .find((e) => e['msg'] === 'config reload refused; keeping the running configuration');
    expect(refused?.['problems']).toEqual(result.problems);
  });

  it('applies what it can and warns which changed sections take effect only after a restart', async () => {
    const { h, file } = await startOnCopy(false);
    const text = (await readFile(file, 'utf8'))
      .replace('listen: { port: 0 }', 'listen: { port: 0, host: 127.0.0.2 }')
      .replace('routes:', 'limits: { maxBodyBytes: 10, maxHeaderSize: 4096 }\nroutes:');
    await writeFile(file, text);
    await addRoute(file, '/api/second');
    expect((await h.gateway.reload()).ok).toBe(true);
    expect(await statusOf(h, '/api/second')).toBe(200);
    const warning = h.logs
      .entries()
      .find((e) => e['msg'] === 'config reload: these sections take effect only after a restart');
    expect(warning?.['sections']).toEqual(['listen', 'limits (listener)']);
  });

  it('lets in-flight requests finish on the old configuration', async () => {
    const { h, file } = await startOnCopy(false);
    const release = h.upstream.hold();
    const seen = h.upstream.seen.length;
    const inflight = h.fetch('/api/first');
    await until(() => h.upstream.seen.length > seen, 'the upstream holds the in-flight request');
    await writeFile(file, (await readFile(file, 'utf8')).replace('/api/first', '/api/renamed'));
    expect((await h.gateway.reload()).ok).toBe(true);
    release();
    expect((await inflight).status).toBe(200);
    expect(await statusOf(h, '/api/first')).toBe(404);
    expect(await statusOf(h, '/api/renamed')).toBe(200);
  });

  it('switches to a new key-set URL only once the new verifier is ready', async () => {
    const { h, file } = await startOnCopy(false);
    const key = await createTestKey();
    const other = await startJwksServer([key]);
    try {
      await writeFile(file, (await readFile(file, 'utf8')).replace(JWKS_LINE, `jwksUrl: ${other.url}`));
      expect((await h.gateway.reload()).ok).toBe(true);
      const kit = await createTokenKit({ now: () => Date.now() }, key);
      await writeFile(
        file,
        (await readFile(file, 'utf8')).replace('/api/first, auth: none', '/api/first, auth: bearer'),
      );
      expect((await h.gateway.reload()).ok).toBe(true);
      const res = await h.fetch('/api/first', { headers: { authorization: bearer(await kit.goodToken()) } });
      expect(res.status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('builds a new verifier when the caches or revocation settings change, and keeps the warm one when only routes do', async () => {
    const { h, file } = await startOnCopy(false);
    const fetches = h.jwks.requests;
    await addRoute(file, '/api/second');
    expect((await h.gateway.reload()).ok).toBe(true);
    expect(h.jwks.requests).toBe(fetches);
    await writeFile(
      file,
      (await readFile(file, 'utf8')).replace('routes:', 'caches: { tokens: { maxEntries: 10 } }\nroutes:'),
    );
    expect((await h.gateway.reload()).ok).toBe(true);
    expect(h.jwks.requests).toBe(fetches + 1);
    await writeFile(
      file,
      (await readFile(file, 'utf8')).replace('routes:', 'revocation: { maxStalenessSec: 6 }\nroutes:'),
    );
    expect((await h.gateway.reload()).ok).toBe(true);
    expect(h.jwks.requests).toBe(fetches + 2);
    // The new verifier asks the feed to hold its polls for half the new bound.
    await until(() => h.feed.requests.some((r) => r.wait === '3'), 'the feed was polled with wait=3');
  });

  it('stops the verifier it replaces: after a reload to another feed, the old feed is polled no more', async () => {
    const { h, file } = await startOnCopy(false);
    const feed = await startNewFeed(h.feed.token);
    try {
      await writeFile(file, (await readFile(file, 'utf8')).replace(FEED_URL_REF, `"${feed.url}"`));
      expect((await h.gateway.reload()).ok).toBe(true);
      const polls = h.feed.requests.length;
      // The old feed holds a poll for 1 s: a client left running would poll it again in this time (1.5 s or more).
      await pollsLater(feed, 4);
      expect(h.feed.requests.length).toBe(polls);
    } finally {
      await feed.close();
    }
  });

  it('refuses a reload whose new key-set URL does not answer, keeping the old verifier', async () => {
    const { h, file } = await startOnCopy(false);
    await writeFile(file, (await readFile(file, 'utf8')).replace(JWKS_LINE, 'jwksUrl: http://127.0.0.1:1/jwks.json'));
    const result = await h.gateway.reload();
    expect(result.ok).toBe(false);
    expect(result.problems[0]).toMatch(/not ready within 1 s/);
    expect((await h.fetch('/readyz')).status).toBe(200);
  });

  it('refuses a file whose routes differ only in parameter names, keeping the old routes and starting no second feed client', async () => {
    const { h, file } = await startOnCopy(false);
    const feed = await startNewFeed(h.feed.token);
    try {
      // A new feed URL would need a new verifier: every poll on `feed` would come from it.
      const text = (await readFile(file, 'utf8')).replace(FEED_URL_REF, `"${feed.url}"`);
      await writeFile(
        file,
        `${text}  - { path: /api/items/:id, auth: none }\n  - { path: /api/items/:itemId, auth: none }\n`,
      );
      const result = await h.gateway.reload();
      expect(result).toEqual({
        ok: false,
        problems: [
          'routes[2].path: duplicate route GET /api/items/:itemId: the same route as routes[1] /api/items/:id (parameter names do not tell routes apart) (line 12)',
        ],
      });
      await expectOldConfigOnly(h, feed);
    } finally {
      await feed.close();
    }
  });

  it('refuses a configuration whose router cannot be built, closing the verifier it started for it', async () => {
    const { h, file } = await startOnCopy(false);
    const feed = await startNewFeed(h.feed.token);
    try {
      await writeFile(file, (await readFile(file, 'utf8')).replace(FEED_URL_REF, `"${feed.url}"`));
      // Passed in directly (as an embedder may), so no validation stands between it and the router.
      const valid = loadGatewayConfig(file, h.env);
      const route = valid.routes[0] as (typeof valid.routes)[number];
      const next = {
        ...valid,
        routes: [route, { ...route, path: '/api/items/:id' }, { ...route, path: '/api/items/:itemId' }],
      };
      const result = await h.gateway.reload(next);
      expect(result).toEqual({
        ok: false,
        problems: [expect.stringContaining("already declared for route '/api/items/:'")],
      });
      expect(feed.requests.length).toBeGreaterThan(0);
      await expectOldConfigOnly(h, feed);
    } finally {
      await feed.close();
    }
  });

  it('refuses a reload still waiting for its new verifier when the gateway closes, leaving nothing polling', async () => {
    const { h, file } = await startOnCopy(false);
    const feed = await startNewFeed(h.feed.token);
    const jwks = await startJwksServer([await createTestKey()]);
    try {
      // The new verifier's keys take a while: the reload is still waiting when close() runs.
      jwks.setDelay(400);
      const text = (await readFile(file, 'utf8'))
        .replace(FEED_URL_REF, `"${feed.url}"`)
        .replace(JWKS_LINE, `jwksUrl: ${jwks.url}`);
      await writeFile(file, text);
      const reloading = h.gateway.reload();
      await until(() => jwks.requests > 0, 'the new verifier asked for its keys');
      await h.gateway.close();
      await until(() => feed.held() === 0, 'the closed verifier dropped its held poll');
      const polls = feed.requests.length;
      // Nothing to wait for: the check is that no poll goes on. A poll sent just before close()
      // may still arrive on a busy machine, and is dropped at once; a verifier left running would
      // have its poll held (at most NEW_FEED_HOLD_SEC) and then poll again, so 1 s shows either.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(feed.requests.length - polls).toBeLessThanOrEqual(1);
      expect(feed.held()).toBe(0);
      expect(await reloading).toEqual({ ok: false, problems: ['the gateway is closing'] });
    } finally {
      await Promise.all([feed.close(), jwks.close()]);
    }
  });
});

describe.each(ENGINES)('a reload from the %s engine', (from) => {
  const to: Engine = from === 'undici' ? 'http-proxy-3' : 'undici';

  it(`forwards new requests on a new ${to} engine and closes the old engine's connections once its last request is done`, async () => {
    const { h, file } = await startOnCopy(false, true, from);
    expect(await statusOf(h, '/api/first')).toBe(200);
    expect(h.upstream.openConnections()).toBe(1);
    // In flight on the old engine, on its kept-alive connection, across the reload: its answer is held until then.
    const release = h.upstream.hold('/api/first?held');
    const inflight = h.fetch('/api/first?held');
    await until(() => h.upstream.seen.length === 2, 'the upstream holds the request in flight');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace(/engine: "[^"]*"/, `engine: "${to}"`));
    expect((await h.gateway.reload()).ok).toBe(true);
    // The new generation's engine opens its own connection; the old one keeps its busy one.
    expect(await statusOf(h, '/api/first')).toBe(200);
    expect(h.upstream.openConnections()).toBe(2);
    release();
    const res = await inflight;
    expect({ status: res.status, body: await res.json() }).toMatchObject({
      status: 200,
      body: { url: '/api/first?held' },
    });
    // Idle now: the old engine is closed, the new one keeps its kept-alive connection.
    await until(() => h.upstream.openConnections() === 1, "the old engine's connection is closed");
    expect(await statusOf(h, '/api/first')).toBe(200);
    expect(h.upstream.openConnections()).toBe(1);
  });
});
