/**
 * The one PostgreSQL NOTIFY channel revocations and store changes share. NOTIFY is
 * database-wide; the payload names the schema so stores in other schemas ignore it.
 * Its own module because both the signal (revocation-signal.ts) and the change payloads
 * (store-change.ts) name it, and the signal's interface speaks of changes.
 */
export const REVOCATION_CHANNEL = 'tokengate_revocation';
