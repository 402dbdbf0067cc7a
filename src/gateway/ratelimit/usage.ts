import type { Logger } from '#common';
import { dayOf } from './month.ts';
import type { UpstreamChannel } from './upstream-channel.ts';

interface Count {
  readonly project_id: string;
  readonly day: string;
  calls: number;
  quota: number | null;
}

/** Entries kept while the upstream does not take them (a day of several thousand projects). */
const MAX_PENDING = 100_000;
export const USAGE_PATH = '/internal/usage';

/**
 * The calls this gateway admitted per project and UTC day, reported to the upstream every
 * `flushMs` (its store sums every gateway's reports for the portal and the admin API). A report
 * the upstream did not take is merged back and sent with the next one.
 */
export interface UsageCounter {
  count(projectId: string, now: number, quota: number | undefined): void;
  flush(): Promise<void>;
  /** Calls admitted per project since this gateway started (the metrics' counter). */
  totals(): ReadonlyMap<string, number>;
}

export function createUsageCounter(channel: UpstreamChannel | undefined, log: Logger): UsageCounter {
  let counts = new Map<string, Count>();
  let day = '';
  let dayEnds = 0;
  let failing = false;
  const totals = new Map<string, number>();
  return {
    totals: () => totals,
    count(projectId, now, quota) {
      const total = totals.get(projectId);
      if (total !== undefined) totals.set(projectId, total + 1);
      else if (totals.size < MAX_PENDING) totals.set(projectId, 1);
      if (now >= dayEnds || now < dayEnds - 86_400_000) {
        day = dayOf(now);
        dayEnds = Date.parse(`${day}T00:00:00Z`) + 86_400_000;
      }
      const key = `${projectId} ${day}`;
      const entry = counts.get(key);
      if (entry !== undefined) {
        entry.calls++;
        entry.quota = quota ?? null;
      } else if (counts.size < MAX_PENDING)
        counts.set(key, { project_id: projectId, day, calls: 1, quota: quota ?? null });
    },
    async flush() {
      if (channel === undefined || counts.size === 0) return;
      const sent = counts;
      counts = new Map();
      try {
        const res = await channel.request(USAGE_PATH, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ usage: [...sent.values()] }),
        });
        await res.arrayBuffer();
        if (res.status !== 204) throw new Error(`status ${res.status}`);
        if (failing) log.info('rate limits: usage reports accepted again');
        failing = false;
      } catch (error) {
        if (!failing) log.warn({ err: String(error) }, 'rate limits: usage report failed; keeping the counts');
        failing = true;
        for (const [key, entry] of sent) {
          const newer = counts.get(key);
          if (newer !== undefined) newer.calls += entry.calls;
          else if (counts.size < MAX_PENDING) counts.set(key, entry);
        }
      }
    },
  };
}
