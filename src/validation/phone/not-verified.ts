/**
 * The closed set of reasons a number is not verified (`not_verified_code`) with the public
 * wording (`not_verified_reason`). INVALID_FORMAT is the documented code. The documented
 * LINE_DISCONNECTED needs a carrier network lookup, which this service does not make, so it
 * is never produced (`line_status` is `unknown` instead).
 */
export const PHONE_NOT_VERIFIED = {
  INVALID_FORMAT: 'Phone number format is incorrect',
  INVALID_COUNTRY_CODE: 'Phone number country calling code is not recognised',
  INVALID_NUMBER: 'Phone number is not a valid number for its country',
  COUNTRY_NOT_ALLOWED: 'Phone number is not registered in an allowed country',
  NOT_MOBILE: 'Phone number is not a mobile number',
} as const;

export type PhoneNotVerifiedCode = keyof typeof PHONE_NOT_VERIFIED;
