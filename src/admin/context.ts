import type { Clock, Logger } from '#common';
import type { Issuer } from '#issuer';
import type {
  AccountStore,
  ActivityStore,
  ApiKeyStore,
  ClientStore,
  InvitationStore,
  PasskeyStore,
  PeopleStore,
  ProjectStore,
  RateLimitStore,
  SecondFactorStore,
  SecretStore,
  UsageStore,
} from '#store';

/**
 * The repositories the admin operations read and write. Signing keys, revocations, and creating
 * or changing a client go through the issuer (it hashes secrets and revokes); sessions are the portal's.
 */
export type AdminStore = AccountStore &
  ProjectStore &
  ClientStore &
  ApiKeyStore &
  PeopleStore &
  InvitationStore &
  RateLimitStore &
  UsageStore &
  ActivityStore &
  SecondFactorStore &
  PasskeyStore &
  SecretStore;

/** What the admin operations work on. */
export interface AdminContext {
  readonly store: AdminStore;
  readonly issuer: Issuer;
  readonly log: Logger;
  /** Re-reads the address data set from DATA_DIR (absent when the host serves no address routes). */
  readonly reloadAddresses?: (() => Promise<void>) | undefined;
  /** What "this month" is for usage (default: the system clock). */
  readonly clock?: Clock | undefined;
  /** The account portal's absolute base URL (`http://host:port/portal`), for invitation links. */
  readonly portalUrl?: (() => string) | undefined;
}
