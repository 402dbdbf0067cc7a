import type { IncomingMessage } from 'node:http';
import { type Actor, type AdminContext, getProject } from '#admin';
import { remoteAddress } from '#common';

export type { AdminContext };

export interface AdminResult {
  readonly status: number;
  readonly body: unknown;
}

export type Params = Readonly<Record<string, string | undefined>>;

export interface AdminRoute {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  handle(ctx: AdminContext, req: IncomingMessage, params: Params): Promise<AdminResult>;
}

export function ok(body: unknown, status = 200): AdminResult {
  return { status, body };
}

/** Every admin API request is the operator's: it carried the admin token. */
export function operatorActor(req: IncomingMessage): Actor {
  return { kind: 'operator', address: remoteAddress(req) };
}

/** Loads a project or answers 404 naming the id. */
export function requireProject(ctx: AdminContext, req: IncomingMessage, id: string | undefined) {
  return getProject(ctx, operatorActor(req), id ?? '');
}
