import type { KeySetAnnouncement, RevocationEntry } from './revocation-types.ts';

const MAX_VALUE_LENGTH = 1024;
const MAX_ANNOUNCED_KIDS = 100;
const MAX_KID_LENGTH = 256;

function isGeneration(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isEntry(value: unknown): value is RevocationEntry {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return (
    (e['kind'] === 'jti' || e['kind'] === 'client') &&
    typeof e['value'] === 'string' &&
    e['value'].length > 0 &&
    e['value'].length <= MAX_VALUE_LENGTH &&
    (e['issuedBefore'] === null || Number.isSafeInteger(e['issuedBefore'])) &&
    (e['generation'] === undefined || e['generation'] === null || isGeneration(e['generation'])) &&
    Number.isSafeInteger(e['expiresAt'])
  );
}

/**
 * The issuer's key-set announcement (`keys: {version, kids}`), or undefined when absent (an issuer
 * of a previous version) or malformed: it only speeds up key refetches, so it never fails a sync.
 */
function parseKeys(value: unknown): KeySetAnnouncement | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { version, kids } = value as { version?: unknown; kids?: unknown };
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0 || !Array.isArray(kids))
    return undefined;
  const usable = kids
    .slice(0, MAX_ANNOUNCED_KIDS)
    .filter((kid): kid is string => typeof kid === 'string' && kid.length > 0 && kid.length <= MAX_KID_LENGTH);
  return { version, kids: usable };
}

/**
 * Reads a feed response `{cursor, entries, keys?}`; a bad cursor or entry is a failed sync (the set
 * is kept). Other members are ignored, which is how a gateway of this version reads an issuer of the
 * next one.
 */
export function parseFeedBody(body: unknown): {
  cursor: number;
  entries: RevocationEntry[];
  keys: KeySetAnnouncement | undefined;
} {
  const { cursor, entries, keys } = (body ?? {}) as { cursor?: unknown; entries?: unknown; keys?: unknown };
  if (typeof cursor !== 'number' || !Number.isSafeInteger(cursor) || cursor < 0)
    throw new Error('feed cursor is not a non-negative integer');
  if (!Array.isArray(entries) || !entries.every(isEntry)) throw new Error('feed entries are malformed');
  return { cursor, entries, keys: parseKeys(keys) };
}
