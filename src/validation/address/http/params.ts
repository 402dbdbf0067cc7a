import { formatError } from '../../format-param.ts';
import { isStateCode, type StateCode } from '../data/vocabulary.ts';

/** A request parameter broke a rule; the message names it (error 1000). */
export class ParamError extends Error {}

export const MAX_QUERY_LENGTH = 200;
export const MAX_RESULTS = 100;
export const DEFAULT_RESULTS = 10;

/** "post_box" → "Post box", the way the public API names parameters in messages. */
function label(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function requiredText(query: URLSearchParams, name: string): string {
  const value = query.get(name)?.trim() ?? '';
  if (value === '') throw new ParamError(`${label(name)} can not be blank`);
  if (value.length > MAX_QUERY_LENGTH)
    throw new ParamError(`${label(name)} is too long (maximum is ${MAX_QUERY_LENGTH} characters)`);
  return value;
}

/** `0`/`1` (also `false`/`true`); absent → the default. */
export function flag(query: URLSearchParams, name: string, fallback: boolean): boolean {
  const value = query.get(name);
  if (value === null || value === '') return fallback;
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  throw new ParamError(`${label(name)} must be 0 or 1`);
}

/**
 * `census`: a census year (an integer, e.g. 2016) asks for the Meshblock, SA1 and SA2 ids;
 * omitted or empty → whether the endpoint returns them by default. Anything else is 1000.
 */
export function censusYear(query: URLSearchParams, byDefault: boolean): boolean {
  const value = query.get('census')?.trim() ?? '';
  if (value === '') return byDefault;
  if (!/^\d{4}$/.test(value)) throw new ParamError('Census must be a census year, e.g. 2016');
  return true;
}

/** `post_box`: omitted = both kinds, 0 = no boxes, 1 = boxes only. */
export function postBox(query: URLSearchParams): 'include' | 'exclude' | 'only' {
  if (!query.has('post_box') || query.get('post_box') === '') return 'include';
  return flag(query, 'post_box', false) ? 'only' : 'exclude';
}

export function maxResults(query: URLSearchParams): number {
  const value = query.get('max');
  if (value === null || value === '') return DEFAULT_RESULTS;
  const n = /^\d{1,3}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 1 && n <= MAX_RESULTS)) throw new ParamError(`Max must be an integer from 1 to ${MAX_RESULTS}`);
  return n;
}

export function stateCodes(query: URLSearchParams): ReadonlySet<StateCode> | null {
  const value = query.get('state_codes');
  if (value === null || value.trim() === '') return null;
  const codes = new Set<StateCode>();
  for (const raw of value.split(',').slice(0, 16)) {
    const code = raw.trim().toUpperCase();
    if (!isStateCode(code)) throw new ParamError(`State codes contains an unknown state: ${code.slice(0, 10)}`);
    codes.add(code);
  }
  return codes;
}

export function format(query: URLSearchParams): void {
  const error = formatError(query);
  if (error) throw new ParamError(error);
}

/** `source`: GNAF (physical), PAF (postal, with boxes), or both (default). */
export function source(query: URLSearchParams): { physical: boolean; postal: boolean } {
  const value = query.get('source');
  if (value === null || value.trim() === '') return { physical: true, postal: true };
  const parts = value
    .toUpperCase()
    .split(',')
    .map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => p !== 'GNAF' && p !== 'PAF'))
    throw new ParamError('Source must be GNAF, PAF or GNAF,PAF');
  return { physical: parts.includes('GNAF'), postal: parts.includes('PAF') };
}
