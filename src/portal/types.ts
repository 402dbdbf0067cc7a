import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Actor, AdminService } from '#admin';
import type { Clock, Logger } from '#common';
import type { Issuer } from '#issuer';
import type { Store } from '#store';

/** What the admin API handlers use; the portal runs them with the same context. */
export interface PortalContext {
  readonly store: Store;
  readonly issuer: Issuer;
  readonly log: Logger;
}

export type OperationParams = Readonly<Record<string, string | undefined>>;

/**
 * One admin API operation (structurally the upstream's `AdminRoute`): the portal calls these
 * handlers instead of re-implementing their rules (plan checks, input bounds, secret hashing).
 */
export interface AdminOperation {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  handle(
    service: AdminService,
    actor: Actor,
    req: IncomingMessage,
    params: OperationParams,
  ): Promise<{ status: number; body: unknown }>;
}

/** An operation's refusal as the admin API would answer it (status + operator-facing message). */
export interface OperationRefusal {
  readonly status: number;
  readonly message: string;
}

export interface PortalOptions {
  readonly context: PortalContext;
  readonly service: AdminService;
  readonly operations: readonly AdminOperation[];
  /** Maps a thrown error to a refusal (an AdminError); undefined = a bug. */
  readonly describeError: (error: unknown) => OperationRefusal | undefined;
  /** The admin token a person exchanges for a session cookie. */
  readonly adminToken: string;
  /** The sign-in limiter's clock (sessions expire on the store's clock). */
  readonly clock?: Clock | undefined;
  /** Session lifetime; default 8 h. */
  readonly sessionTtlMs?: number | undefined;
}

export interface Portal {
  /** Serves every request whose path starts with `/portal`. */
  handle(req: IncomingMessage, res: ServerResponse): void;
}
