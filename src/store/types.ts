import type { Clock } from '#common';
import type { AccountStore } from './repositories/accounts.ts';
import type { ActivityStore } from './repositories/activity.ts';
import type { ApiKeyStore } from './repositories/api-keys.ts';
import type { ChangeFeed } from './repositories/changes.ts';
import type { ClientStore } from './repositories/clients.ts';
import type { InvitationStore } from './repositories/invitations.ts';
import type { PasskeyStore } from './repositories/passkeys.ts';
import type { PeopleStore } from './repositories/people.ts';
import type { PortalSessionStore } from './repositories/portal-sessions.ts';
import type { ProjectStore } from './repositories/projects.ts';
import type { RateLimitStore } from './repositories/rate-limits.ts';
import type { SecondFactorStore } from './repositories/second-factors.ts';
import type { RevocationStore } from './repositories/revocations.ts';
import type { SecretStore } from './repositories/secrets.ts';
import type { SigningKeyStore } from './repositories/signing-keys.ts';
import type { UsageStore } from './repositories/usage.ts';
import type { UsedJtiStore } from './repositories/used-jtis.ts';

/**
 * The persistence contract: one repository per kind of record (repositories/), so that each
 * consumer is typed with the few it uses. Two backends share one SQL schema and one test suite:
 * embedded PGlite under DATA_DIR (default) and PostgreSQL when DATABASE_URL is set.
 * Times are epoch milliseconds unless a name says seconds.
 */
export interface Store
  extends AccountStore,
    ProjectStore,
    ClientStore,
    UsedJtiStore,
    ApiKeyStore,
    SigningKeyStore,
    RevocationStore,
    ChangeFeed,
    PortalSessionStore,
    PeopleStore,
    InvitationStore,
    RateLimitStore,
    UsageStore,
    ActivityStore,
    SecondFactorStore,
    PasskeyStore,
    SecretStore {
  readonly kind: 'embedded' | 'postgres';
  /** Resolves once the database answers a trivial query (readiness); rejects like any call when it does not. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** Embedded data directory (DATA_DIR). */
  dataDir: string;
  /** PostgreSQL connection string (DATABASE_URL); unset means embedded. */
  databaseUrl?: string | undefined;
  /**
   * PostgreSQL only: schema to create if missing and use (search_path) for every table.
   * Unset: the connection's default search_path (normally `public`). Lowercase identifier.
   */
  schema?: string | undefined;
  /** PostgreSQL only: bound on connecting and on each statement, in ms; a call past it rejects. Default 5000. */
  timeoutMs?: number | undefined;
  /** Source of `createdAt` times; default: the system clock. */
  clock?: Clock | undefined;
}
