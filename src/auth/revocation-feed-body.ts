import type { RevocationEntry } from './types.ts';

const MAX_VALUE_LENGTH = 1024;

function isEntry(value: unknown): value is RevocationEntry {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    (e['kind'] === 'jti' || e['kind'] === 'client') &&
    typeof e['value'] === 'string' &&
    e['value'].length > 0 &&
    e['value'].length <= MAX_VALUE_LENGTH &&
    (e['issuedBefore'] === null || Number.isSafeInteger(e['issuedBefore'])) &&
    Number.isSafeInteger(e['expiresAt'])
  );
}

/** Reads a feed response `{cursor, entries}`; anything else is a failed sync (the set is kept). */
export function parseFeedBody(body: unknown): { cursor: number; entries: RevocationEntry[] } {
  const { cursor, entries } = (body ?? {}) as { cursor?: unknown; entries?: unknown };
  if (typeof cursor !== 'number' || !Number.isSafeInteger(cursor) || cursor < 0)
    throw new Error('feed cursor is not a non-negative integer');
  if (!Array.isArray(entries) || !entries.every(isEntry)) throw new Error('feed entries are malformed');
  return { cursor, entries };
}
