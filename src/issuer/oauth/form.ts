import type { IncomingMessage } from 'node:http';
import { BodyTooLargeError, readBody } from '#common';
import { MAX_FORM_BYTES } from '../limits.ts';
import { OAuthError } from './oauth-error.ts';

/** Parameters of a form body: each name once; empty values are dropped (RFC 6749 §3.2: same as absent). */
export type FormParams = ReadonlyMap<string, string>;

/** The parameters an endpoint reads: only these may not repeat; any other name is ignored (RFC 6749 §3.1, §3.2). */
export type RecognizedParams = ReadonlySet<string>;

const FORM_TYPE = 'application/x-www-form-urlencoded';
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Only `application/x-www-form-urlencoded` bodies (any case, any parameters such as charset). */
export function isFormContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  const essence = header.split(';', 1)[0] ?? '';
  return essence.trim().toLowerCase() === FORM_TYPE;
}

/** Reads and parses the request body; every malformation is `invalid_request`, too large is 413. */
export async function readForm(req: IncomingMessage, recognized: RecognizedParams): Promise<FormParams> {
  if (!isFormContentType(req.headers['content-type'])) {
    req.resume();
    throw new OAuthError('invalid_request', 'only application/x-www-form-urlencoded bodies are supported');
  }
  let body: Buffer;
  try {
    body = await readBody(req, MAX_FORM_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      throw new OAuthError('invalid_request', 'request body too large', { status: 413 });
    }
    throw error;
  }
  return parseForm(body, recognized);
}

/**
 * Strict form decoding: invalid UTF-8, bad percent-escapes, NUL bytes and a repeated recognized
 * name are refused. Unrecognized names are ignored however often they come (the server MUST ignore
 * them; RFC 8707 `resource`, for one, may be sent several times) and are not returned.
 */
export function parseForm(body: Buffer, recognized: RecognizedParams): FormParams {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw new OAuthError('invalid_request', 'request body is not valid UTF-8');
  }
  const seen = new Map<string, string>();
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : decodeComponent(pair.slice(eq + 1));
    if (!recognized.has(name)) continue;
    if (seen.has(name)) throw new OAuthError('invalid_request', 'a parameter is repeated');
    seen.set(name, value);
  }
  for (const [name, value] of seen) if (value === '') seen.delete(name);
  return seen;
}

/** application/x-www-form-urlencoded component: `+` is a space, then percent-decoding (UTF-8). */
export function decodeComponent(raw: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    throw new OAuthError('invalid_request', 'malformed percent-encoding');
  }
  if (decoded.includes('\0')) throw new OAuthError('invalid_request', 'NUL bytes are not allowed');
  return decoded;
}
