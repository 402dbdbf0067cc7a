import { type CountryCode, isSupportedCountry } from 'libphonenumber-js/max';
import { z } from 'zod';
import type { Result } from '#common';
import { first, format, once, parseQuery } from '../query-schema.ts';

export interface PhoneParams {
  readonly phoneNumber: string;
  readonly defaultCountry: CountryCode;
  readonly mobileOnly: boolean;
  /** undefined = any country. */
  readonly allowedCountries: ReadonlySet<CountryCode> | undefined;
}

const MAX_PHONE_NUMBER = 100;
const MAX_COUNTRY_LIST = 1000;

/** An ISO 3166-1 alpha-2 code libphonenumber knows, in any case, spaces around it ignored. */
function country(error: string) {
  return z
    .string()
    .transform((raw) => raw.trim().toUpperCase())
    .refine((code): code is CountryCode => /^[A-Z]{2}$/.test(code) && isSupportedCountry(code), { error })
    .transform((code) => code as CountryCode);
}

/** Trimmed; absent or blank is refused with `blank`. */
const filled = (label: string, maxLength: number) =>
  once(label, maxLength)
    .transform((value) => value?.trim() ?? '')
    .pipe(z.string().min(1, { error: `${label} can not be blank` }));

const COUNTRY_LIST = 'Allowed country codes must be a comma-separated list of ISO 3166-1 alpha-2 country codes';

const phoneQuery = z.object({
  phone_number: filled('Phone number', MAX_PHONE_NUMBER),
  default_country_code: filled('Default country code', 10).pipe(
    country('Default country code must be an ISO 3166-1 alpha-2 country code'),
  ),
  /** `true`/`1` or `false`/`0`/empty; absent = false. */
  mobile_only: once('Mobile only', 10)
    .transform((value) => value?.trim().toLowerCase() ?? '')
    .pipe(z.enum(['true', '1', 'false', '0', ''], { error: 'Mobile only must be true or false' }))
    .transform((value) => value === 'true' || value === '1'),
  /** Comma-separated ISO2 codes; absent or empty = any country. */
  allowed_country_codes: once('Allowed country codes', MAX_COUNTRY_LIST)
    .transform((value) => (value ?? '').split(',').filter((name) => name.trim() !== ''))
    .pipe(z.array(country(COUNTRY_LIST)))
    .transform((codes) => (codes.length === 0 ? undefined : new Set(codes))),
  /**
   * `timeout` bounds a carrier check; none runs, but a malformed value is still the caller's bug.
   * Empty is the default, as for the address endpoints' optional numbers (`max`).
   */
  timeout: first.pipe(
    z
      .string()
      .refine((value) => value === '' || (Number(value) > 0 && Number(value) <= 60), {
        error: 'Timeout must be a number of seconds above 0 and at most 60',
      })
      .optional(),
  ),
  format,
});

/** Parsed parameters, or the public 1000 message naming the first invalid one. */
export function parsePhoneParams(query: URLSearchParams): Result<PhoneParams> {
  const parsed = parseQuery(phoneQuery, query);
  if (!parsed.ok) return parsed;
  const { phone_number, default_country_code, mobile_only, allowed_country_codes } = parsed.value;
  return {
    ok: true,
    value: {
      phoneNumber: phone_number,
      defaultCountry: default_country_code,
      mobileOnly: mobile_only,
      allowedCountries: allowed_country_codes,
    },
  };
}
