import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdminService } from '#admin';
import type { Clock, Logger } from '#common';
import type {
  ActivityStore,
  InvitationStore,
  PasskeyStore,
  PeopleStore,
  PortalSessionStore,
  SecondFactorStore,
} from '#store';

export interface PortalOptions {
  /**
   * What a person does in the portal, the admin operations: the same service as the admin API's,
   * so the rules (name bounds, known scopes, plan check, secrets hashed) live in one place.
   */
  readonly service: AdminService;
  /** Where the sessions are kept (any replica on the database serves them), and the people who sign in. */
  readonly store: PortalSessionStore & PeopleStore & InvitationStore & ActivityStore & SecondFactorStore & PasskeyStore;
  readonly log: Logger;
  /** The admin token a person exchanges for a session cookie. */
  readonly adminToken: string;
  /** The sign-in limiter's clock (sessions expire on the store's clock). */
  readonly clock?: Clock | undefined;
  /**
   * The portal's public URL (PORTAL_URL, else the admin server's `/portal`): passkeys belong to
   * its host and must be used from its origin. Default `http://localhost/portal`.
   */
  readonly portalUrl?: (() => string) | undefined;
  /** Session lifetime; default 8 h. */
  readonly sessionTtlMs?: number | undefined;
}

export interface Portal {
  /** Serves every request whose path starts with `/portal`. */
  handle(req: IncomingMessage, res: ServerResponse): void;
}
