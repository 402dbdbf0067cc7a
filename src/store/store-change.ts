import { REVOCATION_CHANNEL } from './notify-channel.ts';
import type { Queryable } from './sql-runner.ts';

/**
 * What changed in the store, so that every replica drops what it cached of it (cache
 * invalidation by id). `resync` has no id: the notification connection was lost and came back,
 * so notifications may have been missed, and everything cached must be read again.
 */
export type StoreChangeKind = 'account' | 'project' | 'client' | 'api_key' | 'signing_keys' | 'resync';

export interface StoreChange {
  readonly kind: StoreChangeKind;
  /** The account, project or client id, or the API key; null for `signing_keys` and `resync`. */
  readonly id: string | null;
}

const KINDS: ReadonlySet<string> = new Set<StoreChangeKind>([
  'account',
  'project',
  'client',
  'api_key',
  'signing_keys',
  'resync',
]);

/**
 * Tells the other replicas on the same channel as revocations. A revocation's payload stays the
 * bare schema name (replicas of the previous version compare it as is); a change is JSON
 * `{schema, kind, id}`, which those replicas ignore (they read again on their timers).
 */
export async function notifyChange(db: Queryable, change: StoreChange): Promise<void> {
  await db.query(
    "SELECT pg_notify($1, json_build_object('schema', current_schema(), 'kind', $2::text, 'id', $3::text)::text)",
    [REVOCATION_CHANNEL, change.kind, change.id],
  );
}

/** The change a notification payload names for `schema`, or null (another schema, a revocation, junk). */
export function parseChange(payload: string | undefined, schema: string): StoreChange | null {
  if (payload === undefined || !payload.startsWith('{')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { schema: of, kind, id } = parsed as Record<string, unknown>;
  if (of !== schema || typeof kind !== 'string' || !KINDS.has(kind)) return null;
  if (id !== null && typeof id !== 'string') return null;
  return { kind: kind as StoreChangeKind, id };
}
