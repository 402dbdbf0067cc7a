import type { NumberType } from 'libphonenumber-js/max';

/**
 * The closed set of `line_type` values: the number plan's own classification from the full
 * libphonenumber metadata, in the API's snake_case. `landline_or_mobile` is what the plan says
 * where the two share ranges (the US and Canada): only a carrier lookup could tell them apart.
 */
export const LINE_TYPES = [
  'mobile',
  'landline',
  'landline_or_mobile',
  'toll_free',
  'premium_rate',
  'shared_cost',
  'voip',
  'personal_number',
  'pager',
  'uan',
  'voicemail',
  'unknown',
] as const;
export type LineType = (typeof LINE_TYPES)[number];

const FROM_LIBRARY: Readonly<Record<NonNullable<NumberType>, LineType>> = {
  MOBILE: 'mobile',
  FIXED_LINE: 'landline',
  FIXED_LINE_OR_MOBILE: 'landline_or_mobile',
  TOLL_FREE: 'toll_free',
  PREMIUM_RATE: 'premium_rate',
  SHARED_COST: 'shared_cost',
  VOIP: 'voip',
  PERSONAL_NUMBER: 'personal_number',
  PAGER: 'pager',
  UAN: 'uan',
  VOICEMAIL: 'voicemail',
};

export function lineType(type: NumberType): LineType {
  return type === undefined ? 'unknown' : FROM_LIBRARY[type];
}

/**
 * Whether a number meets `mobile_only`. A `landline_or_mobile` number passes: the plan cannot
 * exclude that it is a mobile, and refusing every US and Canadian mobile would be wrong.
 */
export function satisfiesMobileOnly(type: LineType): boolean {
  return type === 'mobile' || type === 'landline_or_mobile';
}
