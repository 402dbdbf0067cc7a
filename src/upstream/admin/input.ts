import type { IncomingMessage } from 'node:http';
import { isPlan, isScope, PLANS, type Plan, readBody, SCOPES, type Scope } from '#common';
import { badRequest } from '#admin';

/** Admin bodies are tiny: a name, a plan, a scope list, one token. */
export const ADMIN_BODY_LIMIT = 16 * 1024;
const NAME_MAX = 100;

export type JsonObject = Readonly<Record<string, unknown>>;

/** Reads a bounded JSON object body; an empty body is `{}`. Past the limit: BodyTooLargeError (413). */
export async function readJsonObject(req: IncomingMessage): Promise<JsonObject> {
  const raw = await readBody(req, ADMIN_BODY_LIMIT);
  if (raw.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw badRequest('body must be valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw badRequest('body must be a JSON object');
  return parsed as JsonObject;
}

export function nameField(body: JsonObject): string {
  const name = body['name'];
  if (typeof name !== 'string' || name.trim() === '') throw badRequest('name: required, a non-empty string');
  const trimmed = name.trim();
  if (trimmed.length > NAME_MAX) throw badRequest(`name: at most ${NAME_MAX} characters`);
  // Every control character (C0, DEL and C1: U+0085 is a line break, U+009B a terminal escape), so
  // a name cannot break a line or a terminal when `client list` or the portal shows it.
  if (/\p{Cc}/u.test(trimmed)) throw badRequest('name: must not contain control characters');
  // Bidirectional controls (U+202E and kin) reorder the text printed after them, so one name could
  // make a listing show another's ("Trojan Source"). Joiners and variation selectors, which emoji
  // need, are not among them.
  if (/\p{Bidi_Control}/u.test(trimmed))
    throw badRequest('name: must not contain bidirectional controls (U+202A-202E, U+2066-2069, marks)');
  // A lone surrogate (JSON allows "\ud800") would be stored as U+FFFD: a name other than the one sent.
  if (!trimmed.isWellFormed()) throw badRequest('name: must be valid Unicode text (no lone surrogate)');
  return trimmed;
}

export function planField(body: JsonObject): Plan {
  const plan = body['plan'];
  if (typeof plan !== 'string' || !isPlan(plan)) throw badRequest(`plan: required, one of ${PLANS.join(', ')}`);
  return plan;
}

/** A non-empty list of known scopes, duplicates collapsed, in the table's order. */
export function scopesField(body: JsonObject): Scope[] {
  const scopes = body['scopes'];
  const message = `scopes: required, a non-empty array drawn from ${SCOPES.join(', ')}`;
  if (!Array.isArray(scopes) || scopes.length === 0 || scopes.length > 16) throw badRequest(message);
  for (const scope of scopes) {
    if (typeof scope !== 'string' || !isScope(scope))
      throw badRequest(`scopes: unknown scope ${describeValue(scope)}; ${message}`);
  }
  return SCOPES.filter((scope) => scopes.includes(scope));
}

/** Names an untrusted JSON value without coercing it: `String({toString: 0})` throws. */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 32));
  if (value === null) return '(null)';
  if (Array.isArray(value)) return '(an array)';
  return typeof value === 'object' ? '(an object)' : `(a ${typeof value})`;
}

export function tokenField(body: JsonObject): string {
  const token = body['token'];
  if (typeof token !== 'string' || token.trim() === '') throw badRequest('token: required, a JWT or a jti');
  if (token.length > 8192) throw badRequest('token: at most 8192 characters');
  return token.trim();
}

/** An optional boolean flag: absent is false; anything but true or false is refused. */
export function flagField(body: JsonObject, name: string): boolean {
  const value = body[name];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw badRequest(`${name}: must be true or false`);
  return value;
}
