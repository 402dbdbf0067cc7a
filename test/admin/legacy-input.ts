import { isPlan, isScope, PLANS, SCOPES } from '#common';

/*
 * The hand-written admin field checks the zod schemas replaced (src/upstream/admin/input.ts before
 * the admin service), kept as they were: the oracle that the schemas accept, refuse and word
 * their refusals exactly as the admin API and the portal did. Each throws the refusal's message.
 */

class Refusal extends Error {}

export function legacyName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') throw new Refusal('name: required, a non-empty string');
  const trimmed = name.trim();
  if (trimmed.length > 100) throw new Refusal('name: at most 100 characters');
  if (/\p{Cc}/u.test(trimmed)) throw new Refusal('name: must not contain control characters');
  if (/\p{Bidi_Control}/u.test(trimmed))
    throw new Refusal('name: must not contain bidirectional controls (U+202A-202E, U+2066-2069, marks)');
  if (!trimmed.isWellFormed()) throw new Refusal('name: must be valid Unicode text (no lone surrogate)');
  return trimmed;
}

export function legacyPlan(plan: unknown): string {
  if (typeof plan !== 'string' || !isPlan(plan)) throw new Refusal(`plan: required, one of ${PLANS.join(', ')}`);
  return plan;
}

export function legacyScopes(scopes: unknown): string[] {
  const message = `scopes: required, a non-empty array drawn from ${SCOPES.join(', ')}`;
  if (!Array.isArray(scopes) || scopes.length === 0 || scopes.length > 16) throw new Refusal(message);
  for (const scope of scopes) {
    if (typeof scope !== 'string' || !isScope(scope))
      throw new Refusal(`scopes: unknown scope ${describeValue(scope)}; ${message}`);
  }
  return SCOPES.filter((scope) => scopes.includes(scope));
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 32));
  if (value === null) return '(null)';
  if (Array.isArray(value)) return '(an array)';
  return typeof value === 'object' ? '(an object)' : `(a ${typeof value})`;
}

export function legacyToken(token: unknown): string {
  if (typeof token !== 'string' || token.trim() === '') throw new Refusal('token: required, a JWT or a jti');
  if (token.length > 8192) throw new Refusal('token: at most 8192 characters');
  return token.trim();
}

export function legacyFlag(body: Readonly<Record<string, unknown>>, name: string): boolean {
  const value = body[name];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new Refusal(`${name}: must be true or false`);
  return value;
}

export { Refusal };
