/**
 * Seconds the key set may be used before a refresh: `Cache-Control: max-age` clamped to the
 * configured bounds (a missing or unreadable header uses `fallbackSec`, clamped too), so an
 * issuer can neither make us poll every second nor keep a removed key alive for days.
 */
export function clampedMaxAge(
  cacheControl: string | null,
  minSec: number,
  maxSec: number,
  fallbackSec: number,
): number {
  const match = cacheControl ? /(?:^|[,\s])max-age\s*=\s*"?(\d{1,10})"?/i.exec(cacheControl) : null;
  const declared = match?.[1] !== undefined ? Number(match[1]) : fallbackSec;
  return Math.min(maxSec, Math.max(minSec, declared));
}
