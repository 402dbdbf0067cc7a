import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdminService, RelyingParty } from '#admin';
import type { Clock, Logger } from '#common';
import type { ActivityStore, InvitationStore, PasskeyStore, PeopleStore, Role, SecondFactorStore } from '#store';
import type { LoginLimiter } from './auth/login-limiter.ts';
import type { Session, Sessions } from './auth/sessions.ts';
import type { SignInLimits } from './auth/sign-in-limits.ts';
import type { Mount } from './html/layout.ts';

/** What every page handler may use. */
export interface PortalApp extends Mount {
  /** Every read and change of projects, clients and keys goes through it, as the signed-in person. */
  readonly service: AdminService;
  readonly sessions: Sessions;
  /** The console's: failed admin-token sign-ins per address. */
  readonly limiter: LoginLimiter;
  /** The account portal's: failed sign-ins per address, per email and per account. */
  readonly signInLimits: SignInLimits;
  readonly adminToken: string;
  /**
   * People and invitations to read (the account portal's sign-in), and the sign-ins' activity log.
   * Read only: people, passwords and invitations change through the service (#admin) alone.
   */
  readonly store: Pick<PeopleStore, 'getUser' | 'findUserByEmail' | 'listMemberships'> &
    Pick<InvitationStore, 'peekInvitation'> &
    ActivityStore &
    Pick<SecondFactorStore, 'secondFactorState' | 'listTotpFactors' | 'acceptTotpStep' | 'useRecoveryCode'> &
    Pick<
      PasskeyStore,
      'addPasskeyChallenge' | 'takePasskeyChallenge' | 'listPasskeys' | 'findPasskey' | 'acceptPasskeyCounter'
    >;
  /** The site passkeys belong to, from the portal's public URL (known once the admin server listens). */
  relyingParty(): RelyingParty;
  readonly log: Logger;
  readonly clock: Clock;
}

/** The person a people-portal session belongs to, read at the start of the request. */
export interface Person {
  readonly id: string;
  readonly email: string;
  /** Account id → role. */
  readonly roles: Readonly<Record<string, Role>>;
  /** An account of theirs requires a second factor and they have none: only its setup opens. */
  readonly mustEnrol: boolean;
}

export interface RouteRequest<S extends Session | undefined> {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly params: Readonly<Record<string, string | undefined>>;
  /** The parsed form of a POST (already CSRF-checked on session routes); empty for a GET. */
  readonly form: URLSearchParams;
  readonly session: S;
  /** In the account portal, the signed-in person; undefined in the console and before sign-in. */
  readonly person: Person | undefined;
  readonly app: PortalApp;
}

interface RouteBase {
  readonly method: 'GET' | 'POST';
  /** Under the mount: `/projects` is `/portal/projects` or `/console/projects`. */
  readonly path: string;
  /** Opens to a person who must set up a second factor first (the setup itself, signing out). */
  readonly beforeEnrolment?: true;
}

/**
 * `session` routes run only for a signed-in person, and their POSTs only with a valid CSRF token;
 * `pending` routes (the second step of a sign-in) only for a session that has passed the password alone.
 */
export type PortalRoute =
  | (RouteBase & { readonly access: 'public'; handle(r: RouteRequest<Session | undefined>): Promise<void> | void })
  | (RouteBase & { readonly access: 'session' | 'pending'; handle(r: RouteRequest<Session>): Promise<void> | void });

export function param(r: RouteRequest<Session | undefined>, name: string): string {
  return r.params[name] ?? '';
}
