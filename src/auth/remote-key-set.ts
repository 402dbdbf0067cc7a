import type { KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { systemClock } from '#common';
import { pinAlgorithms } from './algorithms.ts';
import { fetchJson, reasonOf } from './bounded-fetch.ts';
import type { ImportedKey } from './jwk-import.ts';
import { parseKeySet } from './key-set-parse.ts';
import { clampedMaxAge } from './max-age.ts';
import { checkKeySetOptions, KEY_SET_DEFAULTS } from './remote-key-set-options.ts';
import type { KeySetEvent, RemoteKeySet, RemoteKeySetOptions } from './key-set-types.ts';

// Refresh when this share of max-age has passed, so a fresh set is in place before expiry.
const REFRESH_AHEAD = 0.8;
const MAX_RETRY_MS = 30_000;
// A kid the issuer announced is fetched at most this many times (1, 2, 4, 8, 16 s apart) until it
// is announced anew: the replica that answers the fetch may not have reloaded yet, and a key this
// gateway cannot use (an algorithm it does not pin) must not be fetched for ever.
const ANNOUNCED_ATTEMPTS = 6;
const ANNOUNCED_RETRY_MS = 1000;

/**
 * The remote key-set cache (jose remote.ts + Envoy jwks_async_fetcher): loaded at start, refreshed
 * ahead of expiry, one fetch in flight, unknown kid → one refetch then a cooldown (and a memory of
 * unknown kids), last good keys served up to maxStale when the issuer is down, then unavailable.
 *
 * The cooldown is a budget any caller can spend with a junk kid. A genuine new kid does not need it:
 * the issuer announces its kids (`announce`, from the revocation feed), an announced kid the set
 * lacks is fetched at once, and a token bearing one may refetch past the cooldown (at most once a
 * second, a bounded number of times per kid). No caller can make the issuer announce a kid.
 */
export function createRemoteKeySet(options: RemoteKeySetOptions): RemoteKeySet {
  const config = checkKeySetOptions(options);
  const pinned = pinAlgorithms(options.algorithms ?? KEY_SET_DEFAULTS.algorithms);
  const clock = options.clock ?? systemClock;
  const emit = (event: KeySetEvent): void => options.onEvent?.(event);
  const unknownKids = new LRUCache<string, true>({
    max: config.unknownKidMemory,
    ttl: config.cooldownSec * 1000,
    perf: clock,
    ttlResolution: 0,
  });
  let keys = new Map<string, ImportedKey>();
  let loadedAt: number | null = null;
  // Next time a request may start a refresh: refresh-ahead point, or after a failure the backoff.
  let nextAttempt = Number.POSITIVE_INFINITY;
  let staleAt = Number.POSITIVE_INFINITY;
  let unavailableAt = Number.POSITIVE_INFINITY;
  let lastError: string | null = null;
  let lastUnknownRefetch = Number.NEGATIVE_INFINITY;
  // Announced kids → fetches made for them so far; ordered as announced, at most 100.
  let announced = new Map<string, number>();
  let lastAnnouncedRefetch = Number.NEGATIVE_INFINITY;
  let announcedTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  let inFlight: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const stopper = new AbortController();
  const waiters: Array<{ resolve: () => void; reject: (e: Error) => void }> = [];

  function schedule(delayMs: number): void {
    clearTimeout(timer);
    if (stopped) return;
    timer = setTimeout(() => void reload(), Math.max(1000, delayMs));
    timer.unref();
  }

  function installed(fetched: Map<string, ImportedKey>, maxAgeSec: number, started: number): void {
    keys = fetched;
    const now = clock.now();
    loadedAt = now;
    nextAttempt = now + maxAgeSec * 1000 * REFRESH_AHEAD;
    staleAt = now + maxAgeSec * 1000;
    unavailableAt = staleAt + config.maxStaleSec * 1000;
    lastError = null;
    failures = 0;
    unknownKids.clear();
    emit({ type: 'fetch_ok', keys: fetched.size, maxAgeSec, durationMs: now - started });
    options.log?.info({ keys: fetched.size, maxAgeSec }, 'key set loaded');
    schedule(nextAttempt - now);
  }

  function failed(error: unknown, started: number): void {
    const now = clock.now();
    lastError = reasonOf(error);
    failures += 1;
    emit({ type: 'fetch_failed', reason: lastError, durationMs: now - started });
    const ageSec = loadedAt === null ? null : Math.floor((now - loadedAt) / 1000);
    if (ageSec !== null && now >= staleAt && now < unavailableAt) emit({ type: 'stale_served', ageSec });
    if (now >= unavailableAt) emit({ type: 'keys_unavailable', ageSec });
    options.log?.warn({ reason: lastError, ageSec }, 'key set fetch failed');
    const backoff = Math.min(MAX_RETRY_MS, 1000 * 2 ** (failures - 1));
    nextAttempt = now + backoff;
    schedule(backoff);
  }

  async function fetchOnce(): Promise<void> {
    const started = clock.now();
    try {
      const res = await fetchJson(config.url, {
        timeoutMs: config.fetchTimeoutMs,
        maxBytes: config.maxResponseBytes,
        signal: stopper.signal,
      });
      if (res.status !== 200) throw new Error(`key set answered HTTP ${res.status}`);
      const { keys: fetched, ignored } = parseKeySet(res.body, pinned, keys);
      for (const reason of ignored) emit({ type: 'key_ignored', reason });
      if (ignored.length > 0) options.log?.warn({ ignored }, 'key set entries ignored');
      const maxAge = clampedMaxAge(
        res.headers.get('cache-control'),
        config.minMaxAgeSec,
        config.maxMaxAgeSec,
        config.defaultMaxAgeSec,
      );
      if (!stopped) installed(fetched, maxAge, started);
    } catch (error) {
      if (!stopped) failed(error, started);
    }
  }

  /** Single flight: every caller during a fetch shares it. */
  function reload(): Promise<void> {
    if (stopped) return Promise.resolve();
    inFlight ??= fetchOnce().finally(() => {
      inFlight = null;
      // Resolved only now, so a start() caller that reloads at once gets a fresh fetch.
      if (loadedAt !== null) for (const waiter of waiters.splice(0)) waiter.resolve();
    });
    return inFlight;
  }

  function usable(now: number): boolean {
    if (now >= nextAttempt && inFlight === null && !stopped) void reload();
    return loadedAt !== null && now < unavailableAt;
  }

  /** Announced kids the set lacks and may still fetch for. */
  function wanted(): string[] {
    return [...announced].filter(([kid, attempts]) => attempts < ANNOUNCED_ATTEMPTS && !keys.has(kid)).map(([k]) => k);
  }

  /** Fetches the set for the announced kids it lacks; tries again, backing off, while some stay missing. */
  async function fetchAnnounced(): Promise<void> {
    clearTimeout(announcedTimer);
    const kids = wanted();
    if (stopped || kids.length === 0) return;
    for (const kid of kids) announced.set(kid, (announced.get(kid) ?? 0) + 1);
    lastAnnouncedRefetch = clock.now();
    options.log?.info({ kids: kids.length }, 'the issuer announced keys this set lacks; fetching it');
    await reload();
    if (stopped || wanted().length === 0) return;
    const attempts = Math.max(...kids.map((kid) => announced.get(kid) ?? 0));
    announcedTimer = setTimeout(() => void fetchAnnounced(), ANNOUNCED_RETRY_MS * 2 ** (attempts - 1));
    announcedTimer.unref();
  }

  function announce(kids: readonly string[]): void {
    announced = new Map(kids.slice(0, 100).map((kid) => [kid, announced.get(kid) ?? 0]));
    // Before the first load, start() fetches anyway.
    if (loadedAt !== null) void fetchAnnounced();
  }

  /** An unknown kid the issuer announced: a refetch past the cooldown, at most once a second. */
  async function refreshAnnounced(kid: string, joined: boolean): Promise<KeyObject | undefined> {
    const now = clock.now();
    const attempts = announced.get(kid) ?? 0;
    const allowed = !joined && attempts < ANNOUNCED_ATTEMPTS && now - lastAnnouncedRefetch >= ANNOUNCED_RETRY_MS;
    emit({ type: 'unknown_kid', refetched: allowed });
    if (allowed) {
      announced.set(kid, attempts + 1);
      lastAnnouncedRefetch = now;
      await reload();
    }
    return keys.get(kid)?.key;
  }

  async function refreshFor(kid: string): Promise<KeyObject | undefined> {
    // A fetch already in flight is as fresh as a new one: join it instead of fetching again.
    const joined = inFlight !== null;
    if (joined) await inFlight;
    const known = keys.get(kid);
    if (known !== undefined) return known.key;
    if (announced.has(kid)) return refreshAnnounced(kid, joined);
    if (unknownKids.has(kid)) return undefined;
    const now = clock.now();
    const cooling = joined || now - lastUnknownRefetch < config.cooldownSec * 1000;
    emit({ type: 'unknown_kid', refetched: !cooling });
    if (!cooling) {
      lastUnknownRefetch = now;
      await reload();
    }
    const key = keys.get(kid)?.key;
    if (key === undefined) unknownKids.set(kid, true);
    return key;
  }

  return {
    get: (kid) => (usable(clock.now()) ? keys.get(kid)?.key : undefined),
    alg: (kid) => keys.get(kid)?.alg,
    ready: () => usable(clock.now()),
    refreshFor,
    announce,
    reload,
    start() {
      if (loadedAt !== null) return Promise.resolve();
      const loaded = new Promise<void>((resolve, reject) => waiters.push({ resolve, reject }));
      void reload();
      return loaded;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(announcedTimer);
      stopper.abort();
      for (const waiter of waiters.splice(0)) waiter.reject(new Error('key set stopped before it loaded'));
    },
    status() {
      const now = clock.now();
      return {
        loaded: loadedAt !== null,
        ageSec: loadedAt === null ? null : Math.floor((now - loadedAt) / 1000),
        stale: loadedAt !== null && now >= staleAt,
        lastError,
        keys: keys.size,
      };
    },
  };
}
