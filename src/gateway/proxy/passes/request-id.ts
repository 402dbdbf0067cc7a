import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { HeaderPass } from './context.ts';

/** An inbound id is kept only if it is short and plain (it ends up in logs and headers). */
const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the caller's `x-request-id` when well-formed, else a new UUID. */
export function requestIdFrom(headers: IncomingHttpHeaders): string {
  const inbound = headers['x-request-id'];
  return typeof inbound === 'string' && VALID_ID.test(inbound) ? inbound : randomUUID();
}

export const setRequestId: HeaderPass = (headers, ctx) => {
  headers['x-request-id'] = ctx.requestId;
};
