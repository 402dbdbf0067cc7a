import { type CountryCode, isSupportedCountry } from 'libphonenumber-js/max';
import { failure, type Result, success } from '#common';
import { formatError } from '../format-param.ts';
import { singleParam } from '../query-param.ts';

export interface PhoneParams {
  readonly phoneNumber: string;
  readonly defaultCountry: CountryCode;
  readonly mobileOnly: boolean;
  /** undefined = any country. */
  readonly allowedCountries: ReadonlySet<CountryCode> | undefined;
}

const MAX_PHONE_NUMBER = 100;
const MAX_COUNTRY_LIST = 1000;

function country(raw: string): CountryCode | undefined {
  const code = raw.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && isSupportedCountry(code) ? code : undefined;
}

function phoneNumber(query: URLSearchParams): Result<string> {
  const param = singleParam(query, 'phone_number', 'Phone number', MAX_PHONE_NUMBER);
  if (!param.ok) return param;
  const value = param.value?.trim() ?? '';
  return value === '' ? failure('Phone number can not be blank') : success(value);
}

function defaultCountry(query: URLSearchParams): Result<CountryCode> {
  const param = singleParam(query, 'default_country_code', 'Default country code', 10);
  if (!param.ok) return param;
  if ((param.value?.trim() ?? '') === '') return failure('Default country code can not be blank');
  const code = country(param.value ?? '');
  return code ? success(code) : failure('Default country code must be an ISO 3166-1 alpha-2 country code');
}

/** `true`/`1` or `false`/`0`/empty; absent = false. */
function mobileOnly(query: URLSearchParams): Result<boolean> {
  const param = singleParam(query, 'mobile_only', 'Mobile only', 10);
  if (!param.ok) return param;
  const value = param.value?.trim().toLowerCase() ?? '';
  if (value === 'true' || value === '1') return success(true);
  if (value === 'false' || value === '0' || value === '') return success(false);
  return failure('Mobile only must be true or false');
}

/** Comma-separated ISO2 codes; absent or empty = any country. */
function allowedCountries(query: URLSearchParams): Result<ReadonlySet<CountryCode> | undefined> {
  const param = singleParam(query, 'allowed_country_codes', 'Allowed country codes', MAX_COUNTRY_LIST);
  if (!param.ok) return param;
  const codes = (param.value ?? '')
    .split(',')
    .filter((name) => name.trim() !== '')
    .map(country);
  if (codes.some((code) => code === undefined)) {
    return failure('Allowed country codes must be a comma-separated list of ISO 3166-1 alpha-2 country codes');
  }
  return success(codes.length === 0 ? undefined : new Set(codes.filter((code) => code !== undefined)));
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
export function parsePhoneParams(query: URLSearchParams): Result<PhoneParams> {
  const number = phoneNumber(query);
  if (!number.ok) return number;
  const fallback = defaultCountry(query);
  if (!fallback.ok) return fallback;
  const mobile = mobileOnly(query);
  if (!mobile.ok) return mobile;
  const allowed = allowedCountries(query);
  if (!allowed.ok) return allowed;
  const other = otherErrors(query);
  if (other) return failure(other);
  return success({
    phoneNumber: number.value,
    defaultCountry: fallback.value,
    mobileOnly: mobile.value,
    allowedCountries: allowed.value,
  });
}
