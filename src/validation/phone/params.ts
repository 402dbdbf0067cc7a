import { type CountryCode, isSupportedCountry } from 'libphonenumber-js/max';
import { singleParam } from '../email/query.ts';
import { formatError } from '../format-param.ts';

export interface PhoneParams {
  readonly phoneNumber: string;
  readonly defaultCountry: CountryCode;
  readonly mobileOnly: boolean;
  /** undefined = any country. */
  readonly allowedCountries: ReadonlySet<CountryCode> | undefined;
}

type Parsed<T> = { readonly ok: T } | { readonly error: string };

const MAX_PHONE_NUMBER = 100;
const MAX_COUNTRY_LIST = 1000;

function country(raw: string): CountryCode | undefined {
  const code = raw.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && isSupportedCountry(code) ? code : undefined;
}

function phoneNumber(query: URLSearchParams): Parsed<string> {
  const param = singleParam(query, 'phone_number', 'Phone number', MAX_PHONE_NUMBER);
  if ('error' in param) return param;
  const value = param.value?.trim() ?? '';
  return value === '' ? { error: 'Phone number can not be blank' } : { ok: value };
}

function defaultCountry(query: URLSearchParams): Parsed<CountryCode> {
  const param = singleParam(query, 'default_country_code', 'Default country code', 10);
  if ('error' in param) return param;
  if ((param.value?.trim() ?? '') === '') return { error: 'Default country code can not be blank' };
  const code = country(param.value ?? '');
  return code ? { ok: code } : { error: 'Default country code must be an ISO 3166-1 alpha-2 country code' };
}

/** `true`/`1` or `false`/`0`/empty; absent = false. */
function mobileOnly(query: URLSearchParams): Parsed<boolean> {
  const param = singleParam(query, 'mobile_only', 'Mobile only', 10);
  if ('error' in param) return param;
  const value = param.value?.trim().toLowerCase() ?? '';
  if (value === 'true' || value === '1') return { ok: true };
  if (value === 'false' || value === '0' || value === '') return { ok: false };
  return { error: 'Mobile only must be true or false' };
}

/** Comma-separated ISO2 codes; absent or empty = any country. */
function allowedCountries(query: URLSearchParams): Parsed<ReadonlySet<CountryCode> | undefined> {
  const param = singleParam(query, 'allowed_country_codes', 'Allowed country codes', MAX_COUNTRY_LIST);
  if ('error' in param) return param;
  const codes = (param.value ?? '')
    .split(',')
    .filter((name) => name.trim() !== '')
    .map(country);
  if (codes.some((code) => code === undefined)) {
    return { error: 'Allowed country codes must be a comma-separated list of ISO 3166-1 alpha-2 country codes' };
  }
  return { ok: codes.length === 0 ? undefined : new Set(codes.filter((code) => code !== undefined)) };
}

/**
 * `timeout` bounds a carrier check; none runs, but a malformed value is still the caller's bug.
 * Empty is the default, as for the address endpoints' optional numbers (`max`).
 */
function otherErrors(query: URLSearchParams): string | undefined {
  const timeout = query.get('timeout');
  if (timeout !== null && timeout !== '' && !(Number(timeout) > 0 && Number(timeout) <= 60)) {
    return 'Timeout must be a number of seconds above 0 and at most 60';
  }
  return formatError(query);
}

/** Parsed parameters, or the public 1000 message naming the first invalid one. */
export function parsePhoneParams(query: URLSearchParams): PhoneParams | { error: string } {
  const number = phoneNumber(query);
  if ('error' in number) return number;
  const fallback = defaultCountry(query);
  if ('error' in fallback) return fallback;
  const mobile = mobileOnly(query);
  if ('error' in mobile) return mobile;
  const allowed = allowedCountries(query);
  if ('error' in allowed) return allowed;
  const other = otherErrors(query);
  if (other) return { error: other };
  return { phoneNumber: number.ok, defaultCountry: fallback.ok, mobileOnly: mobile.ok, allowedCountries: allowed.ok };
}
