/** The UTC calendar month a quota counts in: its key (`2026-11`) and when it ends. */
export interface Month {
  readonly key: string;
  readonly startMs: number;
  readonly endMs: number;
  /** Its length in seconds (the quota policy's window). */
  readonly seconds: number;
}

export function monthOf(nowMs: number): Month {
  const d = new Date(nowMs);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth();
  const startMs = Date.UTC(year, month, 1);
  const endMs = Date.UTC(year, month + 1, 1);
  return { key: `${year}-${String(month + 1).padStart(2, '0')}`, startMs, endMs, seconds: (endMs - startMs) / 1000 };
}

/** The UTC day (`2026-11-27`) a call is counted on for the usage chart. */
export function dayOf(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 10);
}
