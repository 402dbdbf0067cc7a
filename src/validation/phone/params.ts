import { type CountryCode, isSupportedCountry } from 'libphonenumber-js/max';
import { formatError, singleParam } from '../email/query.ts';

export interface PhoneParams {
  readonly phoneNumber: string;
  readonly defaultCountry: CountryCode;
  readonly mobileOnly: boolean;
  /** undefined = any country. */
  readonly allowedCountries: ReadonlySet<CountryCode> | undefined;
}

const MAX_PHONE_NUMBER = 100;
const MAX_COUNTRY_LIST = 1000;
const COUNTRY_MESSAGE = 'must be an ISO 3166-1 alpha-2 country code';

function country(raw: string): CountryCode | undefined {
  const code = raw.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) && isSupportedCountry(code) ? code : undefined;
}

function flag(raw: string | undefined): boolean | undefined {
  if (raw === undefined) return false;
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0' || value === '') return false;
  return undefined;
}

function countryList(raw: string | undefined): ReadonlySet<CountryCode> | undefined | { error: string } {
  const names = (raw ?? '').split(',').filter((name) => name.trim() !== '');
  if (names.length === 0) return undefined;
  const codes = names.map(country);
  if (codes.some((code) => code === undefined)) return { error: 'Allowed country codes must be a comma-separated list of ISO 3166-1 alpha-2 country codes' };
  return new Set(codes.filter((code) => code !== undefined));
}

/** Parsed parameters, or the public 1000 message naming the first invalid one. */
export function parsePhoneParams(query: URLSearchParams): PhoneParams | { error: string } {
  const number = singleParam(query, 'phone_number', 'Phone number', MAX_PHONE_NUMBER);
  if ('error' in number) return number;
  if (number.value === undefined || number.value.trim() === '') return { error: 'Phone number can not be blank' };
  const defaultCountry = singleParam(query, 'default_country_code', 'Default country code', 10);
  if ('error' in defaultCountry) return defaultCountry;
  if (defaultCountry.value === undefined || defaultCountry.value.trim() === '') return { error: 'Default country code can not be blank' };
  const defaultCode = country(defaultCountry.value);
  if (!defaultCode) return { error: `Default country code ${COUNTRY_MESSAGE}` };
  const mobileOnly = singleParam(query, 'mobile_only', 'Mobile only', 10);
  if ('error' in mobileOnly) return mobileOnly;
  const mobile = flag(mobileOnly.value);
  if (mobile === undefined) return { error: 'Mobile only must be true or false' };
  const allowed = singleParam(query, 'allowed_country_codes', 'Allowed country codes', MAX_COUNTRY_LIST);
  if ('error' in allowed) return allowed;
  const allowedCountries = countryList(allowed.value);
  if (allowedCountries && 'error' in allowedCountries) return allowedCountries;
  const timeout = query.get('timeout');
  if (timeout !== null && !(Number(timeout) > 0 && Number(timeout) <= 60)) return { error: 'Timeout must be a number of seconds above 0 and at most 60' };
  const format = formatError(query);
  if (format) return { error: format };
  return { phoneNumber: number.value.trim(), defaultCountry: defaultCode, mobileOnly: mobile, allowedCountries };
}
