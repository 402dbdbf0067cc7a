import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import Router from 'find-my-way';
import type { Actor } from '#admin';
import type { AdminOperation, PortalOptions } from './types.ts';

export type OperationResult =
  | { readonly ok: true; readonly status: number; readonly body: unknown }
  | { readonly ok: false; readonly status: number; readonly message: string };

/** Calls an admin API operation by method and path, with a JSON body, in-process. */
export type Operations = (
  actor: Actor,
  method: AdminOperation['method'],
  path: string,
  body?: Readonly<Record<string, unknown>>,
) => Promise<OperationResult>;

/**
 * The portal's writes go through the admin API's own handlers, so the rules (name bounds,
 * known scopes, plan check, secrets hashed) live in one place. Each call gets a request
 * carrying the JSON body the handler reads; refusals come back with the admin API's message.
 */
export function createOperations(options: PortalOptions): Operations {
  const router = Router();
  for (const operation of options.operations)
    router.on(operation.method, operation.path, () => undefined, { operation });
  return async (actor, method, path, body) => {
    const found = router.find(method, path);
    const operation = (found?.store as { operation?: AdminOperation } | undefined)?.operation;
    if (!found || !operation) throw new Error(`portal: no admin operation for ${method} ${path}`);
    try {
      const result = await operation.handle(options.service, actor, jsonRequest(method, path, body), found.params);
      return { ok: true, status: result.status, body: result.body };
    } catch (error) {
      const refusal = options.describeError(error);
      if (!refusal) throw error;
      return { ok: false, status: refusal.status, message: refusal.message };
    }
  };
}

function jsonRequest(
  method: string,
  path: string,
  body: Readonly<Record<string, unknown>> | undefined,
): IncomingMessage {
  const payload = Buffer.from(body === undefined ? '' : JSON.stringify(body), 'utf8');
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.url = path;
  req.headers = { 'content-type': 'application/json', 'content-length': String(payload.length) };
  if (payload.length > 0) req.push(payload);
  req.push(null);
  return req;
}
