import type { Logger } from '#common';
import type { Store } from '#store';

/** /readyz asks the store at most this often, whatever the rate of readiness checks. */
const PROBE_INTERVAL_MS = 5000;

/**
 * Whether the store answers, for /readyz, without a query per check: the outcome of the last
 * `SELECT 1` (bounded by the store's own timeout), and a new one started by the first check that
 * finds that outcome older than the interval. A stalled database turns /readyz 503 within an
 * interval plus the timeout, and 200 again within an interval of answering.
 */
export function storeHealth(store: Pick<Store, 'ping'>, log: Logger): () => boolean {
  let answers = true;
  let checkedAt = performance.now();
  let probing = false;
  const probe = async () => {
    const ok = await store.ping().then(
      () => true,
      (error: unknown) => {
        if (answers) log.error({ err: error }, 'store does not answer; reporting not ready');
        return false;
      },
    );
    if (ok && !answers) log.info('store answers again; reporting ready');
    answers = ok;
    checkedAt = performance.now();
    probing = false;
  };
  return () => {
    if (!probing && performance.now() - checkedAt >= PROBE_INTERVAL_MS) {
      probing = true;
      void probe();
    }
    return answers;
  };
}
