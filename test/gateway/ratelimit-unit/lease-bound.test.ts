import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Taken } from '../../../src/gateway/ratelimit/buckets.ts';
import type { LeaseReply } from '../../../src/gateway/ratelimit/lease-script.ts';
import { createLeasedBuckets } from '../../../src/gateway/ratelimit/leased-buckets.ts';
import { rateLimit } from '../../../src/gateway/ratelimit/limit.ts';
import { createMemoryBuckets } from '../../../src/gateway/ratelimit/memory-buckets.ts';
import type { RedisConnection } from '../../../src/gateway/ratelimit/redis-connection.ts';

/**
 * The lease script's arithmetic on one shared bucket that never refills (an hour's window in a
 * test that takes no time), with its replies delivered whenever the property says: any order,
 * any delay, so every interleaving of gateways spending, leasing and waiting is tried.
 */
function sharedRedis(capacity: number) {
  let tokens = capacity;
  const pending: Array<() => void> = [];
  const connection = (): RedisConnection => ({
    lease(_key, _cap, _window, want, debt) {
      return new Promise<LeaseReply>((resolve) => {
        pending.push(() => {
          tokens -= debt;
          const granted = tokens >= 1 ? Math.min(want, Math.floor(tokens)) : 0;
          tokens -= granted;
          resolve([granted, granted === 0 ? 3_600_000 : -1, Math.floor(tokens)]);
        });
      });
    },
    usable: () => true,
    connected: () => true,
    failed: () => undefined,
    close: () => undefined,
  });
  return { connection, pending };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('leasing from a shared bucket', () => {
  it('admits at most the limit plus one chunk per gateway, however calls and replies interleave', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.oneof(fc.record({ call: fc.nat(3) }), fc.record({ reply: fc.nat(20) })), { maxLength: 400 }),
        async (capacity, leaseSize, gateways, steps) => {
          const redis = sharedRedis(capacity);
          const limit = rateLimit('client', capacity, 3_600);
          const chunk = Math.max(1, Math.min(leaseSize, Math.floor(capacity / 10)));
          const now = () => 0;
          const events = { onLease: () => undefined, onFallback: () => undefined };
          const fleet = Array.from({ length: gateways }, () =>
            createLeasedBuckets({
              redis: redis.connection(),
              prefix: '',
              leaseSize,
              failOpen: true,
              fallback: createMemoryBuckets(now),
              now,
              events,
            }),
          );
          let admitted = 0;
          const waiting: Array<Promise<void>> = [];
          const note = (t: Taken) => {
            if (t.ok) admitted++;
          };
          for (const step of steps) {
            if ('call' in step) {
              const taken = (fleet[step.call % gateways] as (typeof fleet)[number]).take('k', limit, 0);
              if (taken instanceof Promise) waiting.push(taken.then(note));
              else note(taken);
            } else if (redis.pending.length > 0) {
              const [deliver] = redis.pending.splice(step.reply % redis.pending.length, 1);
              deliver?.();
              await settle();
            }
          }
          while (redis.pending.length > 0) {
            redis.pending.shift()?.();
            await settle();
          }
          await Promise.all(waiting);
          for (const g of fleet) g.close();
          expect(admitted).toBeLessThanOrEqual(capacity + gateways * chunk);
        },
      ),
      { numRuns: 300 },
    );
  });
});
