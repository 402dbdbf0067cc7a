import type { KeyObject } from 'node:crypto';
import type { Clock, Logger } from '#common';
import type { KeyResolver } from './types.ts';

/** The remote key set (JWKS) a gateway verifies against: its options, status and events. */

/** Observable happenings of the key-set cache, for metrics and logs. */
export type KeySetEvent =
  | { readonly type: 'fetch_ok'; readonly keys: number; readonly maxAgeSec: number; readonly durationMs: number }
  | { readonly type: 'fetch_failed'; readonly reason: string; readonly durationMs: number }
  | { readonly type: 'stale_served'; readonly ageSec: number }
  | { readonly type: 'keys_unavailable'; readonly ageSec: number | null }
  | { readonly type: 'unknown_kid'; readonly refetched: boolean }
  | { readonly type: 'key_ignored'; readonly reason: string };

export interface KeySetStatus {
  readonly loaded: boolean;
  /** Seconds since the last successful fetch; null before the first. */
  readonly ageSec: number | null;
  /** True while serving keys past their max-age because refreshes fail. */
  readonly stale: boolean;
  readonly lastError: string | null;
  readonly keys: number;
}

export interface RemoteKeySetOptions {
  readonly url: string;
  /** Only keys that fit these (kty/crv/alg/use) are imported; default ['RS256']. */
  readonly algorithms?: readonly string[];
  readonly clock?: Clock;
  /** Default 5000. */
  readonly fetchTimeoutMs?: number;
  /** Bounds applied to the response's `Cache-Control: max-age`; defaults 30 and 3600. */
  readonly minMaxAgeSec?: number;
  readonly maxMaxAgeSec?: number;
  /** Least seconds between two unknown-kid refetches; default 30. */
  readonly cooldownSec?: number;
  /** How long past its max-age the last good set is served when the issuer is down; default 3600. */
  readonly maxStaleSec?: number;
  /** Largest accepted key-set response; default 256 KiB. */
  readonly maxResponseBytes?: number;
  /** How many unknown kids are remembered (not refetched again) until the next refresh; default 1000. */
  readonly unknownKidMemory?: number;
  readonly log?: Logger;
  readonly onEvent?: (event: KeySetEvent) => void;
}

export interface RemoteKeySet extends KeyResolver {
  refreshFor(kid: string): Promise<KeyObject | undefined>;
  /**
   * The kids the issuer says it publishes (its revocation feed carries them). Kids the set lacks are
   * fetched at once, past the unknown-kid cooldown, and a token bearing one may refetch past it too:
   * junk kids, which no issuer announces, cannot delay a genuine new key.
   */
  announce(kids: readonly string[]): void;
  /** Resolves after the first successful load, retrying with backoff until then; stop() rejects it. */
  start(): Promise<void>;
  /** Fetches now, joining a fetch already in flight; resolves when it settles (never rejects). */
  reload(): Promise<void>;
  stop(): void;
  status(): KeySetStatus;
}
