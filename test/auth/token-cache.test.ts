import { describe, expect, it } from 'vitest';
import type { AuthDecision, KeyResolver } from '#auth';
import { bearer, createTestKey, staticKeys } from '#test/tokens.ts';
import { entryBytes } from '../../src/auth/token-cache.ts';
import { ADDRESS, ANY, verifierFixture } from './verifier-setup.ts';

function claimsOf(decision: AuthDecision | Promise<AuthDecision>): unknown {
  if (decision instanceof Promise || !decision.ok) throw new Error('expected a synchronous success');
  return decision.token;
}

/** Wraps a resolver to count lookups: `alg` is consulted only when a signature is about to be checked. */
function counting(inner: KeyResolver): KeyResolver & { gets: number; algs: number } {
  const counter = {
    gets: 0,
    algs: 0,
    get: (kid: string) => {
      counter.gets += 1;
      return inner.get(kid);
    },
    alg: (kid: string) => {
      counter.algs += 1;
      return inner.alg?.(kid);
    },
    ready: () => inner.ready(),
  };
  return counter;
}

/** Presents a token twice, so that it is in the verified-token cache (admitted on its second sighting). */
function admit(f: Awaited<ReturnType<typeof verifierFixture>>, token: string): unknown {
  f.verifier.authorize(token, ANY);
  return claimsOf(f.verifier.authorize(token, ANY));
}

describe('verified-token cache', () => {
  it('answers a repeated token from the cache without verifying it again', async () => {
    const f = await verifierFixture();
    const token = bearer(await f.kit.goodToken());
    expect(admit(f, token)).toBe(claimsOf(f.verifier.authorize(token, ANY)));
  });

  it('caches a token on its second sighting only, so single-use tokens cost no cache space', async () => {
    const f = await verifierFixture();
    const token = bearer(await f.kit.goodToken());
    const first = claimsOf(f.verifier.authorize(token, ANY));
    const second = claimsOf(f.verifier.authorize(token, ANY));
    expect(second).not.toBe(first);
    expect(claimsOf(f.verifier.authorize(token, ANY))).toBe(second);
    expect(f.verifier.stats?.()).toMatchObject({ tokenCacheHits: 1, signaturesChecked: 2 });
  });

  it('keeps a reused token cached through a flood of tokens that are each used once', async () => {
    const f = await verifierFixture({ tokenCache: { maxEntries: 2 } });
    const reused = bearer(await f.kit.goodToken());
    const cached = admit(f, reused);
    for (let i = 0; i < 20; i++)
      expect(f.verifier.authorize(bearer(await f.kit.goodToken()), ANY)).toMatchObject({ ok: true });
    expect(claimsOf(f.verifier.authorize(reused, ANY))).toBe(cached);
  });

  it('counts cache hits, negative hits and signatures checked for metrics', async () => {
    const f = await verifierFixture();
    const good = bearer(await f.kit.goodToken());
    const forged = bearer(await f.kit.forgedToken());
    for (let i = 0; i < 4; i++) {
      f.verifier.authorize(good, ANY);
      f.verifier.authorize(forged, ANY);
    }
    expect(f.verifier.stats?.()).toEqual({ tokenCacheHits: 2, negativeCacheHits: 3, signaturesChecked: 3 });
  });

  it('still rejects a cached token once it has expired', async () => {
    const f = await verifierFixture({ clockToleranceSec: 0 });
    const token = bearer(await f.kit.goodToken({ expiresInSec: 30 }));
    admit(f, token);
    f.clock.advanceSec(30);
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ kind: 'token_expired' });
  });

  it('keeps a token no longer than its exp plus the tolerance: past that it is not answered from the cache', async () => {
    const f = await verifierFixture({ clockToleranceSec: 5 });
    const token = bearer(await f.kit.goodToken({ expiresInSec: 30 }));
    admit(f, token);
    f.clock.advanceSec(36);
    const before = f.verifier.stats?.();
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ kind: 'token_expired' });
    expect(f.verifier.stats?.()).toMatchObject({
      tokenCacheHits: before?.tokenCacheHits,
      signaturesChecked: (before?.signaturesChecked ?? 0) + 1,
    });
  });

  it('still rejects a cached token once it is revoked', async () => {
    const f = await verifierFixture();
    const token = bearer(await f.kit.goodToken({ claims: { jti: 'j-1' } }));
    admit(f, token);
    f.revocations.revoked.add('j-1');
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ kind: 'token_revoked' });
  });

  it('still checks the scope of each route on a cached token', async () => {
    const f = await verifierFixture();
    const token = bearer(await f.kit.tokenWithScopes(['phone']));
    admit(f, token);
    expect(f.verifier.authorize(token, ADDRESS)).toMatchObject({ kind: 'insufficient_scope' });
  });

  it('stops honouring a cached token once its key leaves the key set', async () => {
    const f = await verifierFixture();
    const token = bearer(await f.kit.goodToken());
    admit(f, token);
    f.keys.remove(f.kit.key.kid);
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ kind: 'invalid_token' });
  });

  it('refuses a cached token once its kid names another key, and remembers the refusal', async () => {
    const f = await verifierFixture();
    const token = bearer(await f.kit.goodToken());
    admit(f, token);
    f.keys.put(await createTestKey(f.kit.key.alg, f.kit.key.kid));
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ kind: 'invalid_token' });
    const before = f.verifier.stats?.();
    // Now in both caches: the verified entry is not honoured, the refusal is, with no signature check.
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ kind: 'invalid_token' });
    expect(f.verifier.stats?.()).toEqual({ ...before, negativeCacheHits: (before?.negativeCacheHits ?? 0) + 1 });
  });

  it('is bounded by entries: the least recently used token is verified again', async () => {
    const f = await verifierFixture({ tokenCache: { maxEntries: 2 } });
    const [a, b, c] = [
      bearer(await f.kit.goodToken()),
      bearer(await f.kit.goodToken()),
      bearer(await f.kit.goodToken()),
    ];
    const first = admit(f, a);
    admit(f, b);
    const third = admit(f, c);
    expect(claimsOf(f.verifier.authorize(a, ANY))).not.toBe(first);
    expect(claimsOf(f.verifier.authorize(c, ANY))).toBe(third);
  });

  it('is bounded by bytes: tokens beyond maxBytes are not kept', async () => {
    const a = bearer(await (await verifierFixture()).kit.goodToken());
    // Room for one such token and not two.
    const f = await verifierFixture({ tokenCache: { maxEntries: 100, maxBytes: entryBytes(a.length) * 1.5 } });
    const token = bearer(await f.kit.goodToken());
    const first = admit(f, token);
    expect(claimsOf(f.verifier.authorize(token, ANY))).toBe(first);
    admit(f, bearer(await f.kit.goodToken()));
    expect(claimsOf(f.verifier.authorize(token, ANY))).not.toBe(first);
  });

  it('counts a token with many claims for the heap its claims take, not its length alone', async () => {
    const f = await verifierFixture({ tokenCache: { maxEntries: 100, maxBytes: 5_000 } });
    const claims = Object.fromEntries([...Array(60).keys()].map((i) => [`claim_${i}`, `value-${i}-0123456789`]));
    const token = bearer(await f.kit.goodToken({ claims }));
    // Its length plus a fixed overhead would fit in 5,000 bytes; its parsed claims make it larger.
    expect(token.length + 500).toBeLessThan(5_000);
    expect(entryBytes(token.length)).toBeGreaterThan(5_000);
    expect(admit(f, token)).not.toBe(claimsOf(f.verifier.authorize(token, ANY)));
  });

  it("refuses a token that shares a cached token's length and signature tail, and keeps the cached one", async () => {
    const f = await verifierFixture();
    const good = await f.kit.goodToken();
    admit(f, bearer(good));
    // Same length and same last characters (the caches' fingerprint), another payload.
    const dot = good.indexOf('.') + 1;
    const twin = `${good.slice(0, dot)}${good[dot] === 'e' ? 'f' : 'e'}${good.slice(dot + 1)}`;
    for (let i = 0; i < 2; i++)
      expect(f.verifier.authorize(bearer(twin), ANY)).toMatchObject({ ok: false, kind: 'invalid_token' });
    const before = f.verifier.stats?.();
    expect(claimsOf(f.verifier.authorize(bearer(good), ANY))).toMatchObject({ jti: expect.any(String) });
    expect(f.verifier.stats?.()).toEqual({ ...before, tokenCacheHits: (before?.tokenCacheHits ?? 0) + 1 });
  });

  it('can be disabled with maxEntries 0', async () => {
    const f = await verifierFixture({ tokenCache: { maxEntries: 0 } });
    const token = bearer(await f.kit.goodToken());
    expect(claimsOf(f.verifier.authorize(token, ANY))).not.toBe(claimsOf(f.verifier.authorize(token, ANY)));
  });
});

describe('negative cache', () => {
  it('answers a replayed forged token without touching the key set or the signature', async () => {
    const key = await createTestKey();
    const keys = counting(staticKeys(key));
    const f = await verifierFixture({ keys }, key);
    const forged = bearer(await f.kit.forgedToken());
    const first = f.verifier.authorize(forged, ANY);
    expect(first).toMatchObject({ kind: 'invalid_token', detail: 'bad signature' });
    expect({ gets: keys.gets, algs: keys.algs }).toEqual({ gets: 1, algs: 1 });
    for (let i = 0; i < 100; i++) expect(f.verifier.authorize(forged, ANY)).toBe(first);
    expect({ gets: keys.gets, algs: keys.algs }).toEqual({ gets: 1, algs: 1 });
  });

  it('answers a replayed token for another audience from the negative cache, without another signature check', async () => {
    const f = await verifierFixture();
    const other = bearer(await f.kit.wrongAudienceToken());
    const first = f.verifier.authorize(other, ANY);
    expect(first).toMatchObject({ kind: 'invalid_token', detail: 'aud mismatch' });
    for (let i = 0; i < 10; i++) expect(f.verifier.authorize(other, ANY)).toBe(first);
    expect(f.verifier.stats?.()).toMatchObject({ signaturesChecked: 1, negativeCacheHits: 10 });
  });

  it('never refuses a good token for a refused one that shares its length and signature tail', async () => {
    const f = await verifierFixture();
    const good = await f.kit.goodToken();
    // Same length and same last characters (the caches' fingerprint), another payload.
    const dot = good.indexOf('.') + 1;
    const twin = `${good.slice(0, dot)}${good[dot] === 'e' ? 'f' : 'e'}${good.slice(dot + 1)}`;
    for (let i = 0; i < 2; i++)
      expect(f.verifier.authorize(bearer(twin), ANY)).toMatchObject({ ok: false, kind: 'invalid_token' });
    expect(f.verifier.authorize(bearer(good), ANY)).toMatchObject({ ok: true });
  });

  it('forgets a bad token after its TTL and checks it again', async () => {
    const f = await verifierFixture({ negativeCache: { ttlSec: 60 } });
    const forged = bearer(await f.kit.forgedToken());
    const first = f.verifier.authorize(forged, ANY);
    expect(f.verifier.authorize(forged, ANY)).toBe(first);
    f.clock.advanceSec(61);
    const again = f.verifier.authorize(forged, ANY);
    expect(again).toMatchObject({ kind: 'invalid_token' });
    expect(again).not.toBe(first);
  });

  it('keeps answering token_expired with the exp for a replayed expired token', async () => {
    const f = await verifierFixture();
    const expired = bearer(await f.kit.expiredToken(10));
    const first = f.verifier.authorize(expired, ANY);
    expect(first).toMatchObject({ kind: 'token_expired' });
    expect(f.verifier.authorize(expired, ANY)).toBe(first);
  });

  it.each(['iat', 'nbf'] as const)(
    'never remembers a token whose %s is ahead of our clock: it is accepted once the clock catches up',
    async (claim) => {
      const f = await verifierFixture({ clockToleranceSec: 5, negativeCache: { ttlSec: 60 } });
      const nowSec = Math.floor(f.clock.now() / 1000);
      // The issuer's clock is 8 s ahead of ours: 3 s more than the tolerance.
      const token = bearer(await f.kit.goodToken({ claims: { [claim]: nowSec + 8, exp: nowSec + 908 } }));
      expect(f.verifier.authorize(token, ANY)).toMatchObject({
        ok: false,
        kind: 'invalid_token',
        detail: `${claim} in the future`,
      });
      f.clock.advanceSec(4);
      expect(f.verifier.authorize(token, ANY)).toMatchObject({ ok: true });
    },
  );

  it('never remembers a refusal for a stale revocation set: the token is accepted once the set is fresh again', async () => {
    const f = await verifierFixture();
    const token = bearer(await f.kit.goodToken());
    f.revocations.stale = true;
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ kind: 'revocations_stale' });
    f.revocations.stale = false;
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ ok: true });
  });

  it('never remembers a refusal for keys not loaded yet: the token is accepted once they are', async () => {
    const key = await createTestKey();
    const loaded = staticKeys(key);
    let ready = false;
    const keys = { get: (kid: string) => (ready ? loaded.get(kid) : undefined), alg: loaded.alg, ready: () => ready };
    const f = await verifierFixture({ keys }, key);
    const token = bearer(await f.kit.goodToken());
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ kind: 'keys_unavailable' });
    ready = true;
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ ok: true });
  });

  it('never remembers an unknown kid, which may appear at the next key-set refresh', async () => {
    const f = await verifierFixture();
    const token = bearer(await f.kit.unknownKidToken('later'));
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ kind: 'invalid_token' });
    const other = staticKeys({ ...f.kit.key, kid: 'later' });
    Object.assign(f.keys, { get: other.get, alg: other.alg });
    expect(f.verifier.authorize(token, ANY)).toMatchObject({ ok: true });
  });
});

describe('batched signature checks', () => {
  it('answers misses together at the end of the turn with the same decisions, and hits synchronously', async () => {
    const f = await verifierFixture({ batchSignatureChecks: true });
    const [a, b] = [bearer(await f.kit.goodToken()), bearer(await f.kit.goodToken())];
    const forged = bearer(await f.kit.forgedToken());
    const misses = [f.verifier.authorize(a, ANY), f.verifier.authorize(b, ANY), f.verifier.authorize(forged, ANY)];
    for (const miss of misses) expect(miss).toBeInstanceOf(Promise);
    expect(f.verifier.stats?.()).toMatchObject({ signaturesChecked: 0 });
    const [first, second, refused] = await Promise.all(misses);
    expect([first, second]).toMatchObject([{ ok: true }, { ok: true }]);
    expect(refused).toMatchObject({ ok: false, kind: 'invalid_token', detail: 'bad signature' });
    expect(f.verifier.authorize(forged, ANY)).toBe(refused);
    await f.verifier.authorize(a, ANY);
    expect(f.verifier.authorize(a, ANY)).toMatchObject({ ok: true });
  });

  it('still refuses an expired token as expired after the batch', async () => {
    const f = await verifierFixture({ batchSignatureChecks: true });
    expect(await f.verifier.authorize(bearer(await f.kit.expiredToken(10)), ANY)).toMatchObject({
      kind: 'token_expired',
    });
  });
});
