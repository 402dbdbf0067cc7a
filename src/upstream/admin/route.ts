import type { IncomingMessage } from 'node:http';
import type { Logger } from '#common';
import type { Issuer } from '#issuer';
import { isWellFormedId, type Store } from '#store';
import { notFound } from './admin-error.ts';

/** What every admin handler may use. */
export interface AdminContext {
  readonly store: Store;
  readonly issuer: Issuer;
  readonly log: Logger;
  /** Re-reads the address data set from DATA_DIR (absent when the host serves no address routes). */
  readonly reloadAddresses?: (() => Promise<void>) | undefined;
}

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

/** Loads a project or answers 404 naming the id. */
export async function requireProject(ctx: AdminContext, id: string | undefined) {
  const project = id && isWellFormedId(id) ? await ctx.store.getProject(id) : null;
  if (!project) throw notFound('project', id ?? '');
  return project;
}
