import type { Limit } from './limit.ts';

/** One token taken (`remaining` whole tokens left, full again in `resetSec`), or refused. */
export type Taken =
  | { readonly ok: true; readonly remaining: number; readonly resetSec: number }
  | { readonly ok: false; readonly retryAfterMs: number; readonly unavailable?: boolean };

/** Where the counters live: this process (memory-buckets.ts) or Redis through leases (leased-buckets.ts). */
export interface Buckets {
  /**
   * Takes one token of the counter `key`. A promise only in the rare case a gateway has used up
   * both its lease and its credit while more is on its way from Redis.
   */
  take(key: string, limit: Limit, now: number, resetAt?: number): Taken | Promise<Taken>;
  /** Gives back a token taken for a request another counter then refused. */
  refund(key: string, limit: Limit): void;
  /** For /readyz and the metrics: is the shared store reachable (always true in process). */
  status(): BucketsStatus;
  close(): void;
}

export interface BucketsStatus {
  readonly store: 'memory' | 'redis';
  readonly connected: boolean;
  readonly failOpen: boolean;
}
