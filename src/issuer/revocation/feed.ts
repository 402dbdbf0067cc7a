import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Clock, epochSeconds, type Logger, sendJson } from '#common';
import type { Revocation, RevocationStore } from '#store';
import type { KeyAnnouncer } from '../keys/announcement.ts';
import { FEED_MAX_ENTRIES, FEED_MAX_WAIT_SEC, FEED_MAX_WAITERS } from '../limits.ts';
import { feedAuthorized } from './feed-auth.ts';

const NO_STORE = { 'cache-control': 'no-store' };

/**
 * `GET /internal/revocations?cursor=N&wait=S[&keys=V]` for gateways: the live entries after
 * `cursor` (oldest first, at most FEED_MAX_ENTRIES; `cursor` in the answer is the last seq
 * returned, or the one asked for when nothing is new). With nothing new and `wait` > 0 the request
 * is held up to `wait` seconds (max 30) and answered as soon as any replica adds a revocation.
 *
 * With a key announcer every answer also carries `keys: {version, kids}`, the key set this replica
 * publishes (announcement.ts). A gateway that sent the version it last saw (`keys=V`) is answered
 * at once when ours is newer, and a held poll of its as soon as our key set changes. A gateway of a previous
 * version reads only `cursor` and `entries` (src/auth/revocation-feed-body.ts) and sends no `keys`:
 * for it nothing changes.
 */
export class RevocationFeed {
  readonly #store: RevocationStore;
  readonly #feedToken: string;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #keys: KeyAnnouncer | undefined;
  readonly #waiters = new Set<() => void>();
  readonly #unsubscribe: Array<() => void>;
  // Key-set changes seen so far: a poll held across one is answered even if the version did not
  // grow (two changes in one millisecond, or a replica whose clock is behind).
  #keyChanges = 0;
  #closed = false;

  constructor(opts: { store: RevocationStore; feedToken: string; clock: Clock; log: Logger; keys?: KeyAnnouncer }) {
    this.#store = opts.store;
    this.#feedToken = opts.feedToken;
    this.#clock = opts.clock;
    this.#log = opts.log;
    this.#keys = opts.keys;
    this.#unsubscribe = [this.#store.onRevocation(() => this.#wakeAll())];
    if (this.#keys)
      this.#unsubscribe.push(
        this.#keys.onChange(() => {
          this.#keyChanges += 1;
          this.#wakeAll();
        }),
      );
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET')
      return sendJson(
        res,
        405,
        { error: 'invalid_request', error_description: 'use GET' },
        { allow: 'GET', ...NO_STORE },
      );
    if (!feedAuthorized(req.headers.authorization, this.#feedToken)) {
      this.#log.warn({ address: req.socket.remoteAddress }, 'revocation feed: unauthorized');
      return sendJson(
        res,
        401,
        { error: 'invalid_token', error_description: 'feed token required' },
        { 'www-authenticate': 'Bearer realm="tokengate"', ...NO_STORE },
      );
    }
    const query = parseQuery(req.url ?? '');
    if (!query)
      return sendJson(
        res,
        400,
        { error: 'invalid_request', error_description: 'cursor, wait and keys must be non-negative integers' },
        NO_STORE,
      );
    const entries = await this.#entriesAfter(query, res);
    if (res.destroyed) return;
    const page = entries.slice(0, FEED_MAX_ENTRIES);
    const keys = this.#keys ? { keys: this.#keys.announcement() } : {};
    sendJson(res, 200, { cursor: page.at(-1)?.seq ?? query.cursor, entries: page, ...keys }, NO_STORE);
  }

  /** Answers pending long-polls (empty) so servers can close. */
  close(): void {
    this.#closed = true;
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#wakeAll();
  }

  async #entriesAfter(query: FeedQuery, res: ServerResponse): Promise<Revocation[]> {
    const deadline = Date.now() + query.wait * 1000;
    const keyChanges = this.#keyChanges;
    for (;;) {
      const entries = await this.#store.revocationsSince(query.cursor, epochSeconds(this.#clock));
      const remaining = deadline - Date.now();
      if (
        entries.length > 0 ||
        this.#keysChanged(query.keys, keyChanges) ||
        remaining <= 0 ||
        this.#closed ||
        res.destroyed ||
        this.#waiters.size >= FEED_MAX_WAITERS
      )
        return entries;
      if (!(await this.#waitForChange(remaining, res))) return entries;
    }
  }

  /**
   * For a gateway that sent the version it last saw: does this replica publish a newer key set, or
   * did its key set change while the poll was held?
   */
  #keysChanged(version: number | null, changesAtStart: number): boolean {
    if (version === null || this.#keys === undefined) return false;
    return this.#keyChanges !== changesAtStart || this.#keys.announcement().version > version;
  }

  /** Resolves true on a new revocation or key set, false on timeout, disconnect or close. */
  #waitForChange(ms: number, res: ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (changed: boolean) => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        res.off('close', gone);
        resolve(changed);
      };
      const wake = () => done(!this.#closed);
      const gone = () => done(false);
      const timer = setTimeout(gone, ms);
      this.#waiters.add(wake);
      res.once('close', gone);
    });
  }

  #wakeAll(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}

interface FeedQuery {
  readonly cursor: number;
  readonly wait: number;
  /** The key-set version the gateway last saw; null from a gateway that does not send it. */
  readonly keys: number | null;
}

function parseQuery(url: string): FeedQuery | null {
  const params = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
  const cursor = params.get('cursor') ?? '0';
  const wait = params.get('wait') ?? '0';
  const keys = params.get('keys');
  if (!/^\d{1,15}$/.test(cursor) || !/^\d{1,6}$/.test(wait)) return null;
  if (keys !== null && !/^\d{1,15}$/.test(keys)) return null;
  return {
    cursor: Number(cursor),
    wait: Math.min(Number(wait), FEED_MAX_WAIT_SEC),
    keys: keys === null ? null : Number(keys),
  };
}
