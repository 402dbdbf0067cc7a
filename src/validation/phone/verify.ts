import { type PhoneNumber, ParseError, parsePhoneNumberWithError } from 'libphonenumber-js/max';
import { type LineType, lineType, satisfiesMobileOnly } from './line-type.ts';
import { PHONE_NOT_VERIFIED, type PhoneNotVerifiedCode } from './not-verified.ts';
import type { PhoneParams } from './params.ts';

/**
 * The documented fields. `line_status` is always `unknown` with reason `not_checked`: whether a
 * line is connected needs a carrier network lookup (HLR/number portability), which this
 * service does not make, so `is_verified` rests on the number plan alone.
 */
export interface PhoneVerification {
  readonly success: true;
  readonly is_verified: boolean;
  readonly line_type: LineType | null;
  readonly line_status: 'unknown';
  readonly line_status_reason: 'not_checked';
  readonly country_code: string | null;
  readonly calling_code: string | null;
  readonly raw_national: string | null;
  readonly formatted_national: string | null;
  readonly raw_international: string | null;
  readonly formatted_international: string | null;
  readonly not_verified_code: PhoneNotVerifiedCode | null;
  readonly not_verified_reason: string | null;
}

const UNKNOWN_LINE = { line_status: 'unknown', line_status_reason: 'not_checked' } as const;

/** The reason fields, last in the body as the public field list has them. */
function reason(code: PhoneNotVerifiedCode | null) {
  return { not_verified_code: code, not_verified_reason: code ? PHONE_NOT_VERIFIED[code] : null };
}

function unparsed(code: PhoneNotVerifiedCode): PhoneVerification {
  return {
    success: true,
    is_verified: false,
    line_type: null,
    ...UNKNOWN_LINE,
    country_code: null,
    calling_code: null,
    raw_national: null,
    formatted_national: null,
    raw_international: null,
    formatted_international: null,
    ...reason(code),
  };
}

/** The number's fields; raw forms drop any extension, formatted forms keep it. */
function describe(number: PhoneNumber) {
  return {
    country_code: number.country ?? null,
    calling_code: number.countryCallingCode,
    raw_national: number.format('NATIONAL', { formatExtension: (formatted: string) => formatted }).replace(/\D/g, ''),
    formatted_national: number.formatNational(),
    raw_international: number.number,
    formatted_international: number.formatInternational(),
  };
}

/**
 * Rules in order: format, calling code, validity in the number plan (`type` is null for a
 * number invalid in it), allowed countries, mobile.
 */
function failedRule(number: PhoneNumber, type: LineType | null, params: PhoneParams): PhoneNotVerifiedCode | null {
  if (type === null) return 'INVALID_NUMBER';
  const allowed = params.allowedCountries;
  if (allowed && (number.country === undefined || !allowed.has(number.country))) return 'COUNTRY_NOT_ALLOWED';
  if (params.mobileOnly && !satisfiesMobileOnly(type)) return 'NOT_MOBILE';
  return null;
}

function parse(params: PhoneParams): PhoneNumber | PhoneNotVerifiedCode {
  try {
    // extract: false: the whole parameter must be the number, not text that contains one.
    const number = parsePhoneNumberWithError(params.phoneNumber, {
      defaultCountry: params.defaultCountry,
      extract: false,
    });
    return number.isPossible() ? number : 'INVALID_FORMAT';
  } catch (error) {
    if (error instanceof ParseError && error.message === 'INVALID_COUNTRY') return 'INVALID_COUNTRY_CODE';
    if (error instanceof ParseError) return 'INVALID_FORMAT';
    throw error;
  }
}

export function verifyPhone(params: PhoneParams): PhoneVerification {
  const number = parse(params);
  if (typeof number === 'string') return unparsed(number);
  // isValid matches the number against its country's whole plan: once, its answer is `type`.
  const type = number.isValid() ? lineType(number.getType()) : null;
  const code = failedRule(number, type, params);
  return {
    success: true,
    is_verified: code === null,
    line_type: type,
    ...UNKNOWN_LINE,
    ...describe(number),
    ...reason(code),
  };
}
