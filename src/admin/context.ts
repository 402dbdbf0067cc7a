import type { Clock, Logger } from '#common';
import type { Issuer } from '#issuer';
import type { Store } from '#store';

/** What the admin operations work on. */
export interface AdminContext {
  readonly store: Store;
  readonly issuer: Issuer;
  readonly log: Logger;
  /** Re-reads the address data set from DATA_DIR (absent when the host serves no address routes). */
  readonly reloadAddresses?: (() => Promise<void>) | undefined;
  /** What "this month" is for usage (default: the system clock). */
  readonly clock?: Clock | undefined;
  /** The account portal's absolute base URL (`http://host:port/portal`), for invitation links. */
  readonly portalUrl?: (() => string) | undefined;
}
