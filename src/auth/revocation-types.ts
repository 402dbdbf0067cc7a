import type { Clock, Logger } from '#common';
import type { RevocationChecker } from './types.ts';

/** The revocation set a host keeps and the feed client that fills it from the issuer. */

/** A revocation as the feed carries it (same shape as the store's `Revocation`). */
export interface RevocationEntry {
  readonly kind: 'jti' | 'client';
  readonly value: string;
  /** For `client`: tokens issued at or before this epoch second are revoked (see `generation`). */
  readonly issuedBefore: number | null;
  /**
   * For `client`: the client's generation after the disable; tokens whose `client_gen` is lower
   * are revoked, and `issuedBefore` then applies only to tokens without `client_gen`. Absent or
   * null from an issuer that predates generations.
   */
  readonly generation?: number | null;
  /** Epoch seconds after which the entry can be forgotten. */
  readonly expiresAt: number;
}

export interface RevocationSetOptions {
  readonly clock?: Clock;
  /** Seconds without a sync after which the set counts as stale; default 30. */
  readonly maxStalenessSec?: number;
  /** When stale: keep answering from the last set (true) or refuse with 503 (false, default). */
  readonly failOpen?: boolean;
}

export interface RevocationSetStatus {
  readonly size: number;
  readonly synced: boolean;
  /** Seconds since the last sync; null before the first. */
  readonly lagSec: number | null;
  readonly stale: boolean;
}

export interface RevocationSet extends RevocationChecker {
  apply(entries: readonly RevocationEntry[]): void;
  markSynced(): void;
  status(): RevocationSetStatus;
}

/** What the issuer's feed says about its key set: a version that grows with each change, and the kids. */
export interface KeySetAnnouncement {
  readonly version: number;
  readonly kids: readonly string[];
}

export type RevocationFeedEvent =
  | { readonly type: 'sync_ok'; readonly entries: number; readonly cursor: number }
  | { readonly type: 'sync_failed'; readonly reason: string };

export interface RevocationFeedClientOptions {
  /** The feed URL, e.g. `http://127.0.0.1:3000/internal/revocations`. */
  readonly url: string;
  /** The feed credential, sent as `Authorization: Bearer`. */
  readonly token: string;
  readonly set: RevocationSet;
  readonly clock?: Clock;
  readonly log?: Logger;
  /** Long-poll hold asked of the issuer; default 20. */
  readonly waitSec?: number;
  /** Largest backoff after failures; default 5000. */
  readonly maxBackoffMs?: number;
  /** Largest accepted response; default 4 MiB. */
  readonly maxResponseBytes?: number;
  readonly onEvent?: (event: RevocationFeedEvent) => void;
  /**
   * Called with the kids of every key-set announcement the issuer sends beside the revocations (a
   * host passes them to its key set's `announce`). The client also sends the version it last saw,
   * so the issuer answers a held poll as soon as its key set changes.
   */
  readonly onKeys?: (kids: readonly string[]) => void;
}

export interface RevocationFeedClient {
  /** Resolves after the first successful sync (retrying until then). */
  start(): Promise<void>;
  stop(): void;
  status(): { readonly cursor: number; readonly lastError: string | null };
}
