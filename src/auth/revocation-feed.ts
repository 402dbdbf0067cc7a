import { setTimeout as sleep } from 'node:timers/promises';
import { fetchJson, reasonOf } from './bounded-fetch.ts';
import { parseFeedBody } from './revocation-feed-body.ts';
import type { RevocationFeedClient, RevocationFeedClientOptions, RevocationFeedEvent } from './revocation-types.ts';

// The issuer holds a long poll up to `wait` seconds; allow it that long plus this margin.
const TIMEOUT_MARGIN_MS = 10_000;

/**
 * What `Authorization: Bearer <token>` can carry: one word of visible ASCII or Latin-1. fetch
 * refuses anything else with an error quoting the whole header value, token included, and that
 * error would be the logged reason of every retry; such a token fails with this reason instead.
 */
const SENDABLE_TOKEN = /^[\x21-\x7e\u00a1-\u00ff]+$/;
const UNSENDABLE_TOKEN =
  'feed token cannot be sent in a header (whitespace, a control character or a character past U+00FF)';

/**
 * Long-polls the issuer's revocation feed (`GET <url>?cursor=N&wait=S[&keys=V]`, `Authorization:
 * Bearer <feed token>`, answer `{cursor, entries, keys?}`): a revocation arrives as soon as the
 * issuer records it, and so does a change of its key set (`keys`, passed to `onKeys`).
 * On errors the last set is kept, retries back off, and the set's staleness grows (readiness/metric).
 */
export function createRevocationFeedClient(options: RevocationFeedClientOptions): RevocationFeedClient {
  const waitSec = options.waitSec ?? 20;
  const maxBackoffMs = options.maxBackoffMs ?? 5000;
  const maxBytes = options.maxResponseBytes ?? 4 * 1024 * 1024;
  if (!Number.isSafeInteger(waitSec) || waitSec < 0) throw new TypeError('"waitSec" must be a non-negative integer');
  if (typeof options.token !== 'string' || options.token === '')
    throw new TypeError('"token" must be a non-empty string');
  const base = new URL(options.url);
  const sendable = SENDABLE_TOKEN.test(options.token);
  const emit = (event: RevocationFeedEvent): void => options.onEvent?.(event);
  const stopper = new AbortController();
  let cursor = 0;
  // The latest key-set version the issuer announced; sent back so it answers when it has a newer one.
  let keysVersion: number | null = null;
  let lastError: string | null = null;
  let started = false;
  let synced = false;
  let firstSync: { resolve: () => void; reject: (e: Error) => void } | null = null;

  async function syncOnce(): Promise<void> {
    if (!sendable) throw new Error(UNSENDABLE_TOKEN);
    const url = new URL(base);
    url.searchParams.set('cursor', String(cursor));
    // The first sync must not be held: readiness waits for it, and an issuer with nothing
    // revoked would otherwise keep a starting gateway unready for a whole long poll.
    url.searchParams.set('wait', String(synced ? waitSec : 0));
    if (keysVersion !== null) url.searchParams.set('keys', String(keysVersion));
    const res = await fetchJson(url.href, {
      timeoutMs: waitSec * 1000 + TIMEOUT_MARGIN_MS,
      maxBytes,
      headers: { authorization: `Bearer ${options.token}` },
      signal: stopper.signal,
    });
    if (res.status !== 200) throw new Error(`revocation feed answered HTTP ${res.status}`);
    const body = parseFeedBody(res.body);
    options.set.apply(body.entries);
    cursor = body.cursor;
    if (body.keys) {
      keysVersion = Math.max(keysVersion ?? 0, body.keys.version);
      options.onKeys?.(body.keys.kids);
    }
    lastError = null;
    emit({ type: 'sync_ok', entries: body.entries.length, cursor });
    // The issuer pages a long backlog: at start, poll on (unheld) until a page comes back
    // empty, so readiness never reports a set that holds only its first page.
    if (!synced && body.entries.length > 0) return;
    options.set.markSynced();
    synced = true;
    firstSync?.resolve();
    firstSync = null;
  }

  async function loop(): Promise<void> {
    let failures = 0;
    while (!stopper.signal.aborted) {
      try {
        await syncOnce();
        failures = 0;
      } catch (error) {
        if (stopper.signal.aborted) return;
        failures += 1;
        lastError = reasonOf(error);
        emit({ type: 'sync_failed', reason: lastError });
        options.log?.warn({ reason: lastError, lagSec: options.set.status().lagSec }, 'revocation feed sync failed');
        await sleep(Math.min(maxBackoffMs, 100 * 2 ** failures), undefined, { signal: stopper.signal }).catch(() => {});
      }
    }
  }

  return {
    start() {
      if (synced) return Promise.resolve();
      const first = new Promise<void>((resolve, reject) => {
        firstSync = { resolve, reject };
      });
      if (!started) void loop();
      started = true;
      return first;
    },
    stop() {
      stopper.abort();
      firstSync?.reject(new Error('revocation feed stopped before the first sync'));
      firstSync = null;
    },
    status: () => ({ cursor, lastError }),
  };
}
