import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Clock, epochSeconds, type Logger, sendJson } from '#common';
import type { Revocation, Store } from '#store';
import { FEED_MAX_ENTRIES, FEED_MAX_WAIT_SEC, FEED_MAX_WAITERS } from '../limits.ts';
import { feedAuthorized } from './feed-auth.ts';

const NO_STORE = { 'cache-control': 'no-store' };

/**
 * `GET /internal/revocations?cursor=N&wait=S` for gateways: the live entries after `cursor`
 * (oldest first, at most FEED_MAX_ENTRIES; `cursor` in the answer is the last seq returned, or
 * the one asked for when nothing is new). With nothing new and `wait` > 0 the request is held
 * up to `wait` seconds (max 30) and answered as soon as any replica adds a revocation.
 */
export class RevocationFeed {
  readonly #store: Store;
  readonly #feedToken: string;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #waiters = new Set<() => void>();
  readonly #unsubscribe: () => void;
  #closed = false;

  constructor(opts: { store: Store; feedToken: string; clock: Clock; log: Logger }) {
    this.#store = opts.store;
    this.#feedToken = opts.feedToken;
    this.#clock = opts.clock;
    this.#log = opts.log;
    this.#unsubscribe = this.#store.onRevocation(() => this.#wakeAll());
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
        { error: 'invalid_request', error_description: 'cursor and wait must be non-negative integers' },
        NO_STORE,
      );
    const entries = await this.#entriesAfter(query.cursor, query.wait, res);
    if (res.destroyed) return;
    const page = entries.slice(0, FEED_MAX_ENTRIES);
    sendJson(res, 200, { cursor: page.at(-1)?.seq ?? query.cursor, entries: page }, NO_STORE);
  }

  /** Answers pending long-polls (empty) so servers can close. */
  close(): void {
    this.#closed = true;
    this.#unsubscribe();
    this.#wakeAll();
  }

  async #entriesAfter(cursor: number, waitSec: number, res: ServerResponse): Promise<Revocation[]> {
    const deadline = Date.now() + waitSec * 1000;
    for (;;) {
      const entries = await this.#store.revocationsSince(cursor, epochSeconds(this.#clock));
      const remaining = deadline - Date.now();
      if (
        entries.length > 0 ||
        remaining <= 0 ||
        this.#closed ||
        res.destroyed ||
        this.#waiters.size >= FEED_MAX_WAITERS
      )
        return entries;
      if (!(await this.#waitForChange(remaining, res))) return entries;
    }
  }

  /** Resolves true on a new revocation, false on timeout, disconnect or close. */
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

function parseQuery(url: string): { cursor: number; wait: number } | null {
  const params = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
  const cursor = params.get('cursor') ?? '0';
  const wait = params.get('wait') ?? '0';
  if (!/^\d{1,15}$/.test(cursor) || !/^\d{1,6}$/.test(wait)) return null;
  return { cursor: Number(cursor), wait: Math.min(Number(wait), FEED_MAX_WAIT_SEC) };
}
