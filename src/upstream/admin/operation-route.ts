import type { IncomingMessage } from 'node:http';
import { type Actor, type AdminService, type Operation, parseInput } from '#admin';
import { remoteAddress } from '#common';
import { readJsonObject } from './body.ts';

export interface AdminResult {
  readonly status: number;
  readonly body: unknown;
}

export type Params = Readonly<Record<string, string | undefined>>;

/** Every admin API request is the operator's: it carried the admin token. */
export function operatorActor(req: IncomingMessage): Actor {
  return { kind: 'operator', address: remoteAddress(req) };
}

/**
 * One admin operation over HTTP: the parent the path names first (so an unknown one is a 404
 * whatever the body holds), then the input (a POST's JSON body, a GET's query) through the
 * operation's schema, then the service; the answer is the operation's view.
 */
export async function answer(op: Operation, service: AdminService, req: IncomingMessage, params: Params) {
  const actor = operatorActor(req);
  let id = params['id'] ?? '';
  if (op.parent === 'account') id = (await service.getAccount(actor, id)).id;
  if (op.parent === 'project') id = (await service.getProject(actor, id)).id;
  const input = op.input === undefined ? undefined : parseInput(op.input, await rawInput(op, req));
  return { status: op.status, body: await op.run(service, actor, { id, input }) } satisfies AdminResult;
}

async function rawInput(op: Operation, req: IncomingMessage): Promise<Readonly<Record<string, unknown>>> {
  if (op.method !== 'GET') return readJsonObject(req);
  // The first value of each member, as URLSearchParams.get reads it.
  const search = new URL(req.url ?? '/', 'http://admin.invalid').searchParams;
  return Object.fromEntries([...new Set(search.keys())].map((key) => [key, search.get(key)]));
}
