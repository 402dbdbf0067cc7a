import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createRemoteKeySet,
  createVerifier,
  type KeySetEvent,
  type RemoteKeySet,
  type RemoteKeySetOptions,
} from '#auth';
import { createLogger } from '#common';
import { createFakeClock, type FakeClock } from '#test/fake-clock.ts';
import { type JwksServer, startJwksServer } from '#test/jwks-server.ts';
import {
  bearer,
  createTestKey,
  createTokenKit,
  simpleRevocations,
  TEST_AUDIENCE,
  TEST_ISSUER,
  type TestKey,
} from '#test/tokens.ts';

let k1: TestKey;
let k2: TestKey;
beforeAll(async () => {
  [k1, k2] = await Promise.all([createTestKey('RS256', 'k1'), createTestKey('RS256', 'k2')]);
});

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

interface Fixture {
  server: JwksServer;
  clock: FakeClock;
  keySet: RemoteKeySet;
  events: KeySetEvent[];
}

async function fixture(options: Partial<RemoteKeySetOptions> = {}, keys: TestKey[] = [k1]): Promise<Fixture> {
  const server = await startJwksServer(keys);
  const clock = createFakeClock();
  const events: KeySetEvent[] = [];
  const keySet = createRemoteKeySet({ url: server.url, clock, onEvent: (e) => events.push(e), ...options });
  cleanups.push(
    () => keySet.stop(),
    () => server.close(),
  );
  return { server, clock, keySet, events };
}

/** A verifier that takes its keys from the fixture's remote key set. */
function verifierOn(f: Fixture) {
  return createVerifier({
    issuer: TEST_ISSUER,
    audience: TEST_AUDIENCE,
    algorithms: ['RS256'],
    keys: f.keySet,
    revocations: simpleRevocations(),
    clock: f.clock,
  });
}

describe('remote key set: loading and refresh', () => {
  it('is not ready until start() has loaded the set', async () => {
    const f = await fixture();
    expect(f.keySet.ready()).toBe(false);
    expect(f.keySet.get('k1')).toBeUndefined();
    await f.keySet.start();
    expect(f.keySet.ready()).toBe(true);
    expect(f.keySet.get('k1')?.equals(k1.publicKey)).toBe(true);
    expect(f.keySet.status()).toMatchObject({ loaded: true, ageSec: 0, stale: false, lastError: null, keys: 1 });
  });

  it('retries a failed first load by itself, without any request, and then resolves start()', async () => {
    const f = await fixture();
    f.server.failNext(1, 503);
    const started = f.keySet.start();
    await expect.poll(() => f.server.requests, { timeout: 3000 }).toBe(2);
    await started;
    expect(f.keySet.ready()).toBe(true);
  });

  it('refreshes ahead of expiry from Cache-Control max-age', async () => {
    const f = await fixture();
    f.server.setCacheControl('max-age=100');
    await f.keySet.start();
    f.server.rotate(k2);
    f.clock.advanceSec(79);
    f.keySet.get('k1');
    expect(f.server.requests).toBe(1);
    f.clock.advanceSec(1);
    // At 80% of max-age a request starts the refresh by itself (no reload() called).
    f.keySet.get('k1');
    await expect.poll(() => f.keySet.get('k2')).toBeDefined();
    expect(f.server.requests).toBe(2);
  });

  it.each([
    ['max-age=5', 60],
    ['public, max-age=999999', 3600],
    [null, 300],
    ['no-store', 300],
  ])('clamps Cache-Control %s to %i s', async (header, expected) => {
    const f = await fixture({ minMaxAgeSec: 60, maxMaxAgeSec: 3600 });
    f.server.setCacheControl(header);
    await f.keySet.start();
    expect(f.events).toContainEqual(expect.objectContaining({ type: 'fetch_ok', maxAgeSec: expected }));
  });

  it('keeps one fetch in flight however many callers ask at once', async () => {
    const f = await fixture();
    await f.keySet.start();
    f.server.setDelay(50);
    await Promise.all([
      ...Array.from({ length: 20 }, () => f.keySet.reload()),
      ...Array.from({ length: 20 }, (_, i) => f.keySet.refreshFor(`kid-${i}`)),
    ]);
    expect(f.server.requests).toBe(2);
  });

  it('reuses the imported key object while the published key is unchanged', async () => {
    const f = await fixture();
    await f.keySet.start();
    const before = f.keySet.get('k1');
    await f.keySet.reload();
    expect(f.keySet.get('k1')).toBe(before);
  });

  it('imports the new key when a refresh publishes other key material under a known kid', async () => {
    const f = await fixture();
    await f.keySet.start();
    f.server.setKeys([{ ...k2.publicJwk, kid: 'k1' }]);
    await f.keySet.reload();
    expect(f.keySet.get('k1')?.equals(k2.publicKey)).toBe(true);
  });

  it('stops verifying with a key once a refresh no longer lists it', async () => {
    const f = await fixture();
    await f.keySet.start();
    const verifier = verifierOn(f);
    const token = bearer(await (await createTokenKit(f.clock, k1)).goodToken());
    expect(verifier.authorize(token, { scopes: [], match: 'any' })).toMatchObject({ ok: true });
    f.server.rotate(k2, 'k1');
    await f.keySet.reload();
    expect(f.keySet.get('k1')).toBeUndefined();
    expect(f.keySet.get('k2')).toBeDefined();
    expect(await verifier.authorize(token, { scopes: [], match: 'any' })).toMatchObject({
      ok: false,
      kind: 'invalid_token',
    });
  });
});

describe('remote key set: unknown kids', () => {
  it('refetches once for an unknown kid and finds a newly published key', async () => {
    const f = await fixture();
    await f.keySet.start();
    f.server.rotate(k2);
    expect((await f.keySet.refreshFor('k2'))?.equals(k2.publicKey)).toBe(true);
    expect(f.server.requests).toBe(2);
  });

  it('costs the issuer one fetch for a flood of random kids, then cools down', async () => {
    const f = await fixture({ cooldownSec: 30 });
    await f.keySet.start();
    for (let i = 0; i < 200; i++) expect(await f.keySet.refreshFor(`random-${i}`)).toBeUndefined();
    expect(f.server.requests).toBe(2);
    f.clock.advanceSec(29);
    expect(await f.keySet.refreshFor('random-x')).toBeUndefined();
    expect(f.server.requests).toBe(2);
    f.clock.advanceSec(1);
    expect(await f.keySet.refreshFor('random-y')).toBeUndefined();
    expect(f.server.requests).toBe(3);
    expect(f.events.filter((e) => e.type === 'unknown_kid' && e.refetched)).toHaveLength(2);
  });

  it('remembers an unknown kid: replayed after the cooldown it costs no fetch, while a kid never seen does refetch', async () => {
    const f = await fixture({ cooldownSec: 30 });
    await f.keySet.start();
    expect(await f.keySet.refreshFor('first')).toBeUndefined();
    expect(f.server.requests).toBe(2);
    f.clock.advanceSec(20);
    expect(await f.keySet.refreshFor('replayed')).toBeUndefined();
    f.clock.advanceSec(11);
    expect(await f.keySet.refreshFor('replayed')).toBeUndefined();
    expect(f.server.requests).toBe(2);
    expect(await f.keySet.refreshFor('new')).toBeUndefined();
    expect(f.server.requests).toBe(3);
  });

  it('through the verifier: accepts a token refused during the cooldown once the cooldown is over and its key is published', async () => {
    const f = await fixture({ cooldownSec: 30 });
    await f.keySet.start();
    const verifier = verifierOn(f);
    expect(await f.keySet.refreshFor('other')).toBeUndefined();
    f.server.rotate(k2);
    const token = bearer(await (await createTokenKit(f.clock, k2)).goodToken());
    expect(await verifier.authorize(token, { scopes: [], match: 'any' })).toMatchObject({ kind: 'invalid_token' });
    f.clock.advanceSec(31);
    expect(await verifier.authorize(token, { scopes: [], match: 'any' })).toMatchObject({ ok: true });
  });

  it('through the verifier: 1,000 tokens with random kids cost one fetch and all fail as invalid_token', async () => {
    const f = await fixture();
    await f.keySet.start();
    const kit = await createTokenKit(f.clock, k1);
    const verifier = verifierOn(f);
    const tokens = await Promise.all(Array.from({ length: 1000 }, () => kit.unknownKidToken()));
    const decisions = await Promise.all(tokens.map((t) => verifier.authorize(bearer(t), { scopes: [], match: 'any' })));
    expect(decisions.every((d) => !d.ok && d.kind === 'invalid_token')).toBe(true);
    expect(f.server.requests).toBe(2);
  });
});

describe('remote key set: kids the issuer announces', () => {
  it('fetches an announced kid it lacks at once, although a junk kid just spent the cooldown', async () => {
    const f = await fixture({ cooldownSec: 30 });
    await f.keySet.start();
    expect(await f.keySet.refreshFor('junk')).toBeUndefined();
    f.server.rotate(k2);
    expect(await f.keySet.refreshFor('k2')).toBeUndefined(); // cooling down: not announced yet
    f.keySet.announce(['k1', 'k2']);
    await expect.poll(() => f.keySet.get('k2')?.equals(k2.publicKey)).toBe(true);
    expect(f.server.requests).toBe(3);
    f.keySet.announce(['k1', 'k2']);
    expect(f.server.requests).toBe(3); // nothing missing: no fetch
  });

  it('lets a token of an announced kid refetch past the cooldown, at most once a second', async () => {
    const f = await fixture({ cooldownSec: 30 });
    await f.keySet.start();
    const verifier = verifierOn(f);
    const token = bearer(await (await createTokenKit(f.clock, k2)).goodToken());
    expect(await f.keySet.refreshFor('junk')).toBeUndefined();
    // Announced by a replica whose key set the fetches below reach before it has reloaded.
    f.keySet.announce(['k1', 'k2']);
    await expect.poll(() => f.server.requests).toBe(3);
    f.clock.advance(999);
    expect(await verifier.authorize(token, { scopes: [], match: 'any' })).toMatchObject({ kind: 'invalid_token' });
    expect(f.server.requests).toBe(3);
    f.server.rotate(k2);
    f.clock.advance(1);
    expect(await verifier.authorize(token, { scopes: [], match: 'any' })).toMatchObject({ ok: true });
    expect(f.server.requests).toBe(4);
  });

  it('gives up an announced kid it cannot get after a few fetches, so a token bearing it cannot make it fetch on', async () => {
    const f = await fixture({ cooldownSec: 30 });
    await f.keySet.start();
    f.keySet.announce(['k1', 'never-published']);
    await expect.poll(() => f.server.requests).toBe(2);
    for (let i = 0; i < 20; i++) {
      f.clock.advanceSec(1);
      expect(await f.keySet.refreshFor('never-published')).toBeUndefined();
    }
    expect(f.server.requests).toBe(7);
  });
});

describe('remote key set: an unreachable issuer', () => {
  it('gives up a fetch after the timeout and keeps the last good keys', async () => {
    const f = await fixture({ fetchTimeoutMs: 100 });
    await f.keySet.start();
    f.server.setDelay(1000);
    await f.keySet.reload();
    expect(f.keySet.status().lastError).toBe('timeout');
    expect(f.keySet.get('k1')).toBeDefined();
  });

  it('serves stale keys up to maxStale after max-age, then reports keys unavailable', async () => {
    const f = await fixture({ maxStaleSec: 600 });
    f.server.setCacheControl('max-age=300');
    await f.keySet.start();
    f.server.failNext(1000, 503);
    f.clock.advanceSec(301);
    await f.keySet.reload();
    expect(f.keySet.status()).toMatchObject({ stale: true, lastError: 'key set answered HTTP 503' });
    expect(f.keySet.get('k1')).toBeDefined();
    expect(f.events).toContainEqual({ type: 'stale_served', ageSec: 301 });
    f.clock.advanceSec(600);
    expect(f.keySet.get('k1')).toBeUndefined();
    expect(f.keySet.ready()).toBe(false);
    await f.keySet.reload();
    expect(f.events).toContainEqual({ type: 'keys_unavailable', ageSec: 901 });
  });

  it('counts staleness from max-age, not from the refresh-ahead point, and serves the keys for all of maxStale after it', async () => {
    const f = await fixture({ maxStaleSec: 600 });
    f.server.setCacheControl('max-age=300');
    await f.keySet.start();
    f.server.failNext(1000, 503);
    f.clock.advanceSec(299);
    await f.keySet.reload();
    expect(f.keySet.status()).toMatchObject({ stale: false, lastError: 'key set answered HTTP 503' });
    f.clock.advanceSec(600); // max-age + maxStale = 900 s
    expect(f.keySet.get('k1')).toBeDefined();
    f.clock.advanceSec(1);
    expect(f.keySet.get('k1')).toBeUndefined();
  });

  it('makes the verifier answer keys_unavailable once the keys are past maxStale', async () => {
    const f = await fixture({ maxStaleSec: 0 });
    f.server.setCacheControl('max-age=60');
    await f.keySet.start();
    const kit = await createTokenKit(f.clock, k1);
    const verifier = verifierOn(f);
    const token = bearer(await kit.goodToken());
    expect(verifier.authorize(token, { scopes: [], match: 'any' })).toMatchObject({ ok: true });
    f.server.failNext(1000, 0);
    f.clock.advanceSec(60);
    expect(await verifier.authorize(token, { scopes: [], match: 'any' })).toMatchObject({ kind: 'keys_unavailable' });
  });

  it('does not hammer the issuer: requests during the backoff start no fetch', async () => {
    const f = await fixture();
    f.server.setCacheControl('max-age=60');
    await f.keySet.start();
    f.server.failNext(1000, 500);
    f.clock.advanceSec(60);
    f.keySet.get('k1');
    await f.keySet.reload();
    const after = f.server.requests;
    // Each failed fetch settles in a few ms; requests after it, still within the 1 s backoff, start none.
    for (let i = 0; i < 5; i++) {
      f.keySet.get('k1');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(f.server.requests).toBe(after);
    f.clock.advanceSec(1);
    f.keySet.get('k1');
    await expect.poll(() => f.server.requests).toBe(after + 1);
  });

  it('rejects start() when stopped before the first load', async () => {
    const f = await fixture();
    f.server.failNext(1000, 500);
    const started = f.keySet.start();
    f.keySet.stop();
    await expect(started).rejects.toThrow('stopped');
  });
});

describe('remote key set: what it imports', () => {
  it('imports only keys that fit the pinned algorithms and ignores the rest without failing the set', async () => {
    const [es, rsaSmall] = await Promise.all([createTestKey('ES256', 'es'), createTestKey('RS256', 'small')]);
    const { generateKeyPairSync } = await import('node:crypto');
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
    const f = await fixture();
    f.server.setKeys([
      k1,
      es,
      { ...k2.publicJwk, use: 'enc' },
      { ...rsaSmall.publicJwk, ...small, kid: 'small' },
      { kty: 'oct', kid: 'hmac', k: 'c2VjcmV0' },
      { kty: 'RSA', kid: 'broken', n: 'AQAB', e: 'AQAB' },
      { ...k2.publicJwk, kid: 'declared-ps', alg: 'PS256' },
      { kty: 'RSA' },
    ]);
    await f.keySet.start();
    expect(f.keySet.status().keys).toBe(1);
    expect(f.keySet.get('k1')).toBeDefined();
    expect(f.events.filter((e) => e.type === 'key_ignored')).toHaveLength(7);
  });

  it('ignores a key whose kty or alg is an object with no usable toString, and loads the others', async () => {
    const f = await fixture();
    await f.keySet.start();
    const odd = { toString: 0 };
    f.server.setRawBody(
      JSON.stringify({
        keys: [{ kty: odd, kid: 'odd-kty' }, { ...k2.publicJwk, kid: 'odd-alg', alg: odd }, k1.publicJwk],
      }),
    );
    await f.keySet.reload();
    expect(f.keySet.status()).toMatchObject({ lastError: null, keys: 1 });
    expect(f.events.filter((e) => e.type === 'key_ignored')).toEqual([
      { type: 'key_ignored', reason: 'odd-kty: kty of type object unsupported' },
      { type: 'key_ignored', reason: 'odd-alg: alg of type object not pinned' },
    ]);
  });

  it('treats a set with no usable key, a non-JSON body or an oversized body as a failed fetch', async () => {
    const f = await fixture({ maxResponseBytes: 10_000 });
    await f.keySet.start();
    for (const body of ['{"keys":[]}', 'not json', JSON.stringify({ keys: [k1.publicJwk], pad: 'x'.repeat(20_000) })]) {
      f.server.setRawBody(body);
      await f.keySet.reload();
      expect(f.keySet.status().lastError).not.toBeNull();
      expect(f.keySet.get('k1')).toBeDefined();
    }
  });
});

describe('remote key set: what its failures say', () => {
  it('never reports or logs the password of a key-set URL with user:password@ (an UPSTREAM_URL with credentials), which /readyz shows', async () => {
    const server = await startJwksServer([k1]);
    const withPassword = new URL(server.url);
    withPassword.username = 'gateway';
    withPassword.password = 'upstream-password-0123456789';
    const lines: string[] = [];
    const log = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } });
    const events: KeySetEvent[] = [];
    const keySet = createRemoteKeySet({ url: withPassword.href, log, onEvent: (e) => events.push(e) });
    cleanups.push(
      () => keySet.stop(),
      () => server.close(),
    );
    void keySet.start().catch(() => undefined);
    while (lines.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const reported = [JSON.stringify(keySet.status()), JSON.stringify(events), lines.join('')].join('');
    expect(keySet.status().lastError).toContain('credentials');
    expect(reported).not.toContain('upstream-password');
  });

  it('says why fetch failed, as its cause does: a key-set URL on a port fetch refuses (6000, X11) is "bad port", not just "fetch failed"', async () => {
    const keySet = createRemoteKeySet({ url: 'http://127.0.0.1:6000/.well-known/jwks.json' });
    cleanups.push(() => keySet.stop());
    void keySet.start().catch(() => undefined);
    await vi.waitFor(() => expect(keySet.status().lastError).not.toBeNull(), { timeout: 5_000 });
    expect(keySet.status().lastError).toBe('fetch failed (bad port)');
  });
});
