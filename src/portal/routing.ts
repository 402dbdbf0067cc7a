import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdminService } from '#admin';
import type { Clock, Logger } from '#common';
import type { LoginLimiter } from './auth/login-limiter.ts';
import type { Session, Sessions } from './auth/sessions.ts';

/** What every page handler may use. */
export interface PortalApp {
  /** Every read and change of projects, clients and keys goes through it, as the signed-in person. */
  readonly service: AdminService;
  readonly sessions: Sessions;
  readonly limiter: LoginLimiter;
  readonly adminToken: string;
  readonly log: Logger;
  readonly clock: Clock;
}

export interface RouteRequest<S extends Session | undefined> {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly params: Readonly<Record<string, string | undefined>>;
  /** The parsed form of a POST (already CSRF-checked on session routes); empty for a GET. */
  readonly form: URLSearchParams;
  readonly session: S;
  readonly app: PortalApp;
}

interface RouteBase {
  readonly method: 'GET' | 'POST';
  readonly path: string;
}

/** `session` routes run only for a signed-in person, and their POSTs only with a valid CSRF token. */
export type PortalRoute =
  | (RouteBase & { readonly access: 'public'; handle(r: RouteRequest<Session | undefined>): Promise<void> | void })
  | (RouteBase & { readonly access: 'session'; handle(r: RouteRequest<Session>): Promise<void> | void });

export function param(r: RouteRequest<Session | undefined>, name: string): string {
  return r.params[name] ?? '';
}
