import { describe, expect, it } from 'vitest';
import { createLogger } from '#common';
import { createPhoneRoute } from '#validation';

const route = createPhoneRoute();
const log = createLogger({ level: 'silent' });

function verify(params: Record<string, string>): Record<string, unknown> {
  const response = route.handle({ query: new URLSearchParams(params), projectId: 'proj_test', log });
  if (response instanceof Promise) throw new Error('the phone route answers synchronously');
  expect(response.status).toBe(200);
  return response.body as Record<string, unknown>;
}

describe('phone verification results', () => {
  it('verifies the documented Australian landline example with every documented field', () => {
    expect(verify({ phone_number: '(02) 8503 8000', default_country_code: 'AU' })).toEqual({
      success: true,
      is_verified: true,
      line_type: 'landline',
      line_status: 'unknown',
      line_status_reason: 'not_checked',
      country_code: 'AU',
      calling_code: '61',
      raw_national: '0285038000',
      formatted_national: '(02) 8503 8000',
      raw_international: '+61285038000',
      formatted_international: '+61 2 8503 8000',
      not_verified_code: null,
      not_verified_reason: null,
    });
  });

  it('classifies the documented 1800 number as toll free', () => {
    expect(verify({ phone_number: '1800 152 363', default_country_code: 'AU' })).toMatchObject({
      is_verified: true,
      line_type: 'toll_free',
      raw_international: '+611800152363',
      formatted_national: '1800 152 363',
    });
  });

  it.each([
    ['AU mobile', '0412 345 678', 'AU', 'AU', '61', 'mobile', '+61412345678', '0412 345 678'],
    ['NZ mobile', '021 123 4567', 'NZ', 'NZ', '64', 'mobile', '+64211234567', '021 123 4567'],
    ['UK landline', '020 7946 0018', 'GB', 'GB', '44', 'landline', '+442079460018', '020 7946 0018'],
    ['US number', '(212) 555-0100', 'US', 'US', '1', 'landline_or_mobile', '+12125550100', '(212) 555-0100'],
    ['German premium rate', '0900 123 4567', 'DE', 'DE', '49', 'premium_rate', '+499001234567', '0900 1 234567'],
    ['French mobile', '+33 6 12 34 56 78', 'AU', 'FR', '33', 'mobile', '+33612345678', '06 12 34 56 78'],
    ['Indian mobile', '+91 98765 43210', 'AU', 'IN', '91', 'mobile', '+919876543210', '098765 43210'],
    ['Japanese mobile', '+81 90-1234-5678', 'AU', 'JP', '81', 'mobile', '+819012345678', '090-1234-5678'],
    ['Brazilian mobile', '+55 11 91234-5678', 'AU', 'BR', '55', 'mobile', '+5511912345678', '(11) 91234-5678'],
    ['South African mobile', '+27 82 123 4567', 'AU', 'ZA', '27', 'mobile', '+27821234567', '082 123 4567'],
    ['Kazakh mobile under +7', '+7 701 123 4567', 'RU', 'KZ', '7', 'mobile', '+77011234567', '8 (701) 123 4567'],
    ['Jersey landline under +44', '+44 1534 123456', 'GB', 'JE', '44', 'landline', '+441534123456', '01534 123456'],
    ['AU shared-cost 13 number', '13 00 00', 'AU', 'AU', '61', 'shared_cost', '+61130000', '130000'],
  ])('verifies a %s', (_name, number, defaultCountry, country, callingCode, type, e164, national) => {
    expect(verify({ phone_number: number, default_country_code: defaultCountry })).toMatchObject({
      is_verified: true,
      country_code: country,
      calling_code: callingCode,
      line_type: type,
      raw_international: e164,
      formatted_national: national,
    });
  });

  it('uses the country calling code in the number over the default country', () => {
    expect(verify({ phone_number: '+64 21 123 4567', default_country_code: 'AU' })).toMatchObject({
      country_code: 'NZ',
      is_verified: true,
    });
  });

  it('understands the default country international dialling prefix (0011 from Australia)', () => {
    expect(verify({ phone_number: '0011 64 21 123 4567', default_country_code: 'AU' })).toMatchObject({
      raw_international: '+64211234567',
    });
  });

  it('keeps an extension in the formatted forms and out of the raw ones', () => {
    expect(verify({ phone_number: '+61 2 8503 8000 ext 12', default_country_code: 'AU' })).toMatchObject({
      raw_national: '0285038000',
      raw_international: '+61285038000',
      formatted_national: '(02) 8503 8000 ext. 12',
    });
  });

  it('accepts a lower-case default country code', () => {
    expect(verify({ phone_number: '0412 345 678', default_country_code: 'au' })).toMatchObject({ is_verified: true });
  });

  it.each([
    ['letters', 'call me'],
    ['text around a number', 'call 0412 345 678 now'],
    ['too few digits', '12'],
    ['too many digits', '+61 4123 4567 8901 23'],
    ['a calling code alone', '+61 4'],
  ])('answers INVALID_FORMAT with the documented reason for %s', (_what, number) => {
    expect(verify({ phone_number: number, default_country_code: 'AU' })).toMatchObject({
      is_verified: false,
      not_verified_code: 'INVALID_FORMAT',
      not_verified_reason: 'Phone number format is incorrect',
      line_type: null,
      country_code: null,
      raw_international: null,
    });
  });

  it('answers INVALID_COUNTRY_CODE for a calling code that does not exist', () => {
    expect(verify({ phone_number: '+999 1234 5678', default_country_code: 'AU' })).toMatchObject({
      is_verified: false,
      not_verified_code: 'INVALID_COUNTRY_CODE',
    });
  });

  it('answers INVALID_NUMBER for a well-formed number outside the assigned ranges (UK drama range)', () => {
    expect(verify({ phone_number: '+44 7700 900123', default_country_code: 'AU' })).toMatchObject({
      is_verified: false,
      not_verified_code: 'INVALID_NUMBER',
      not_verified_reason: 'Phone number is not a valid number for its country',
      line_type: null,
      calling_code: '44',
      raw_international: '+447700900123',
    });
  });

  it('answers NOT_MOBILE for a landline when mobile_only is true', () => {
    expect(verify({ phone_number: '(02) 8503 8000', default_country_code: 'AU', mobile_only: 'true' })).toMatchObject({
      is_verified: false,
      line_type: 'landline',
      not_verified_code: 'NOT_MOBILE',
      not_verified_reason: 'Phone number is not a mobile number',
    });
  });

  it('answers NOT_MOBILE for a toll-free number when mobile_only is 1', () => {
    expect(verify({ phone_number: '1800 152 363', default_country_code: 'AU', mobile_only: '1' })).toMatchObject({
      not_verified_code: 'NOT_MOBILE',
    });
  });

  it('verifies a mobile when mobile_only is true', () => {
    expect(verify({ phone_number: '0412 345 678', default_country_code: 'AU', mobile_only: 'true' })).toMatchObject({
      is_verified: true,
    });
  });

  it('lets a US number that may be a mobile pass mobile_only (the plan cannot tell)', () => {
    expect(verify({ phone_number: '(212) 555-0100', default_country_code: 'US', mobile_only: 'true' })).toMatchObject({
      is_verified: true,
      line_type: 'landline_or_mobile',
    });
  });

  it('ignores mobile_only=false', () => {
    expect(verify({ phone_number: '(02) 8503 8000', default_country_code: 'AU', mobile_only: 'false' })).toMatchObject({
      is_verified: true,
    });
  });

  it('verifies a number from one of the allowed countries', () => {
    expect(
      verify({ phone_number: '021 123 4567', default_country_code: 'NZ', allowed_country_codes: 'AU,NZ' }),
    ).toMatchObject({ is_verified: true });
  });

  it('answers COUNTRY_NOT_ALLOWED for a number from another country', () => {
    expect(
      verify({ phone_number: '+44 20 7946 0018', default_country_code: 'AU', allowed_country_codes: 'au, nz' }),
    ).toMatchObject({
      is_verified: false,
      country_code: 'GB',
      not_verified_code: 'COUNTRY_NOT_ALLOWED',
      not_verified_reason: 'Phone number is not registered in an allowed country',
    });
  });

  it('tells Jersey from Great Britain when checking allowed countries under the shared +44', () => {
    expect(
      verify({ phone_number: '+44 1534 123456', default_country_code: 'GB', allowed_country_codes: 'GB' }),
    ).toMatchObject({ not_verified_code: 'COUNTRY_NOT_ALLOWED' });
  });

  it('refuses a non-geographic number (+800) when countries are restricted', () => {
    expect(verify({ phone_number: '+800 1234 5678', default_country_code: 'AU' })).toMatchObject({
      is_verified: true,
      country_code: null,
      line_type: 'toll_free',
    });
    expect(
      verify({ phone_number: '+800 1234 5678', default_country_code: 'AU', allowed_country_codes: 'AU' }),
    ).toMatchObject({ not_verified_code: 'COUNTRY_NOT_ALLOWED' });
  });

  it('checks the allowed country before mobile_only', () => {
    expect(
      verify({
        phone_number: '+44 20 7946 0018',
        default_country_code: 'AU',
        allowed_country_codes: 'AU',
        mobile_only: 'true',
      }),
    ).toMatchObject({ not_verified_code: 'COUNTRY_NOT_ALLOWED' });
  });

  it('treats an empty allowed_country_codes as no restriction', () => {
    expect(
      verify({ phone_number: '+44 20 7946 0018', default_country_code: 'AU', allowed_country_codes: '' }),
    ).toMatchObject({ is_verified: true });
  });

  it('accepts the timeout parameter (no network check runs, so it changes nothing)', () => {
    expect(verify({ phone_number: '0412 345 678', default_country_code: 'AU', timeout: '10' })).toMatchObject({
      is_verified: true,
      line_status: 'unknown',
    });
  });
});

// Regression: not_verified_code and not_verified_reason came right after is_verified, where the
// public field list has them last; a client reading the body in the documented order saw them early.
describe('phone verification field order', () => {
  const DOCUMENTED_ORDER = [
    'success',
    'is_verified',
    'line_type',
    'line_status',
    'line_status_reason',
    'country_code',
    'calling_code',
    'raw_national',
    'formatted_national',
    'raw_international',
    'formatted_international',
    'not_verified_code',
    'not_verified_reason',
  ];

  it('answers the documented fields in the documented order, verified, not verified and unparsable alike', () => {
    expect(Object.keys(verify({ phone_number: '(02) 8503 8000', default_country_code: 'AU' }))).toEqual(
      DOCUMENTED_ORDER,
    );
    expect(
      Object.keys(verify({ phone_number: '(02) 8503 8000', default_country_code: 'AU', mobile_only: 'true' })),
    ).toEqual(DOCUMENTED_ORDER);
    expect(Object.keys(verify({ phone_number: 'abc', default_country_code: 'AU' }))).toEqual(DOCUMENTED_ORDER);
  });
});
