/**
 * Runs queued jobs back to back at the end of the current event-loop turn (setImmediate: after
 * every socket that was ready in this poll phase has been read). Used for the signature checks
 * of cache misses: an RSA verification that runs alone between two requests finds OpenSSL's
 * code and tables evicted from the CPU caches and costs about twice as much as one that follows
 * another (bench/gateway/ab.ts, fresh tokens: 189 → 140 µs of gateway CPU per request).
 */
export interface Batch {
  run<T>(job: () => T): Promise<T>;
}

export function createBatch(): Batch {
  let pending: Array<() => void> = [];

  function drain(): void {
    const jobs = pending;
    pending = [];
    for (const job of jobs) job();
  }

  return {
    run(job) {
      return new Promise((resolve, reject) => {
        pending.push(() => {
          try {
            resolve(job());
          } catch (error) {
            reject(error);
          }
        });
        if (pending.length === 1) setImmediate(drain);
      });
    },
  };
}
