/**
 * An HTTP-date as senders must write it (RFC 9110 section 5.6.7, IMF-fixdate). The two obsolete
 * forms are not read: Date.parse takes asctime's, which names no zone, for local time.
 */
const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * The wait a `Retry-After` header asks for, in ms from `nowMs` (RFC 9110 section 10.2.3): a
 * number of seconds, or an HTTP-date read against the client's clock (one already past is 0).
 * Undefined when there is no header or it is neither.
 */
export function retryAfterMs(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!IMF_FIXDATE.test(text)) return undefined;
  const atMs = Date.parse(text);
  return Number.isNaN(atMs) ? undefined : Math.max(0, atMs - nowMs);
}
