import type { KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { systemClock } from '#common';
import { pinAlgorithms } from './algorithms.ts';
import { fetchJson, reasonOf } from './bounded-fetch.ts';
import type { ImportedKey } from './jwk-import.ts';
import { parseKeySet } from './key-set-parse.ts';
import { clampedMaxAge } from './max-age.ts';
import { checkKeySetOptions } from './remote-key-set-options.ts';
import type { KeySetEvent, RemoteKeySet, RemoteKeySetOptions } from './types.ts';

// Refresh when this share of max-age has passed, so a fresh set is in place before expiry.
const REFRESH_AHEAD = 0.8;
const MAX_RETRY_MS = 30_000;

/**
 * The remote key-set cache (jose remote.ts + Envoy jwks_async_fetcher): loaded at start, refreshed
 * ahead of expiry, one fetch in flight, unknown kid → one refetch then a cooldown (and a memory of
 * unknown kids), last good keys served up to maxStale when the issuer is down, then unavailable.
 */
export function createRemoteKeySet(options: RemoteKeySetOptions): RemoteKeySet {
  const config = checkKeySetOptions(options);
  const pinned = pinAlgorithms(options.algorithms ?? ['RS256']);
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

  async function refreshFor(kid: string): Promise<KeyObject | undefined> {
    // A fetch already in flight is as fresh as a new one: join it instead of fetching again.
    const joined = inFlight !== null;
    if (joined) await inFlight;
    const known = keys.get(kid);
    if (known !== undefined || unknownKids.has(kid)) return known?.key;
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
