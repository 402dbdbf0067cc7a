import type { IncomingMessage } from 'node:http';
import type { Actor, AdminService } from '#admin';
import { remoteAddress } from '#common';

export interface AdminResult {
  readonly status: number;
  readonly body: unknown;
}

export type Params = Readonly<Record<string, string | undefined>>;

/** An admin API route: parses the request, calls the service, answers the view. */
export interface AdminRoute {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  handle(service: AdminService, actor: Actor, req: IncomingMessage, params: Params): Promise<AdminResult>;
}

export function ok(body: unknown, status = 200): AdminResult {
  return { status, body };
}

/** Every admin API request is the operator's: it carried the admin token. */
export function operatorActor(req: IncomingMessage): Actor {
  return { kind: 'operator', address: remoteAddress(req) };
}

/** The `:id` of the path ('' when absent: no id, so a 404). */
export function id(params: Params): string {
  return params['id'] ?? '';
}
