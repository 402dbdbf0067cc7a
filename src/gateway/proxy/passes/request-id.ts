import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { HeaderPass } from './context.ts';

/** An inbound id is kept only if it is short and plain (it ends up in logs and headers). */
const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * New ids are UUID-shaped: a random prefix drawn once per process (workers and restarts differ)
 * and a 48-bit counter as the last group. Unique without a random draw per request (randomUUID
 * cost ~1 µs a request); an id names a request, it is not a secret.
 */
const PREFIX = randomUUID().slice(0, 24);
let counter = 0;

export function newRequestId(): string {
  counter = (counter + 1) % 2 ** 48;
  return PREFIX + counter.toString(16).padStart(12, '0');
}

/** The request's id: the caller's `x-request-id` when well-formed, else a new one. */
export function requestIdFrom(headers: IncomingHttpHeaders): string {
  const inbound = headers['x-request-id'];
  return typeof inbound === 'string' && VALID_ID.test(inbound) ? inbound : newRequestId();
}

export const setRequestId: HeaderPass = (headers, ctx) => {
  headers['x-request-id'] = ctx.requestId;
};
