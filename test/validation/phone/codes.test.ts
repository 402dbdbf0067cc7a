import { describe, expect, it } from 'vitest';
import { LINE_TYPES, PHONE_NOT_VERIFIED } from '../../../src/validation/phone/index.ts';

// These closed sets are part of the public API (docs/api.md): changing one is a breaking change.
describe('closed value sets of the phone result', () => {
  it('keeps the phone not_verified codes and reasons', () => {
    expect(PHONE_NOT_VERIFIED).toEqual({
      INVALID_FORMAT: 'Phone number format is incorrect',
      INVALID_COUNTRY_CODE: 'Phone number country calling code is not recognised',
      INVALID_NUMBER: 'Phone number is not a valid number for its country',
      COUNTRY_NOT_ALLOWED: 'Phone number is not registered in an allowed country',
      NOT_MOBILE: 'Phone number is not a mobile number',
    });
  });

  it('keeps the phone line types', () => {
    expect(LINE_TYPES).toEqual([
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
    ]);
  });
});
