import type { IncomingMessage } from 'node:http';
import { readBody } from '#common';

/** Portal forms are tiny (a name, three scopes, one JWT); a JWT is the largest field. */
export const FORM_BODY_LIMIT = 16 * 1024;

/** Reads a bounded `application/x-www-form-urlencoded` body (BodyTooLargeError above the limit). */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const raw = await readBody(req, FORM_BODY_LIMIT);
  const type = String(req.headers['content-type'] ?? '')
    .split(';', 1)[0]
    ?.trim()
    .toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return new URLSearchParams();
  return new URLSearchParams(raw.toString('utf8'));
}
