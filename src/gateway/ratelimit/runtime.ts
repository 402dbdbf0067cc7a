import type { Clock, Logger } from '#common';
import type { Buckets, BucketsStatus } from './buckets.ts';
import { createLimiter, type Limiter } from './limiter.ts';
import { createMemoryBuckets } from './memory-buckets.ts';
import { createPolicyBook, type PolicyBook } from './policy-book.ts';

/** The gateway's rate limiting: counters, projects' policies, and the limiter over them. */
export interface RateLimiting {
  readonly limiter: Limiter;
  readonly book: PolicyBook;
  /** The project of an API key, once the upstream has named it (key/secret calls). */
  projectOfKey(key: string): string | undefined;
  status(): BucketsStatus;
  close(): void;
}

export interface RateLimitingDeps {
  readonly clock: Clock;
  readonly log: Logger;
}

export function createRateLimiting(deps: RateLimitingDeps): RateLimiting {
  const { clock } = deps;
  const buckets: Buckets = createMemoryBuckets(() => clock.now());
  const book = createPolicyBook();
  const keyProjects = new Map<string, string>();
  return {
    limiter: createLimiter(buckets, book, clock),
    book,
    projectOfKey: (key) => keyProjects.get(key),
    status: () => buckets.status(),
    close: () => buckets.close(),
  };
}
