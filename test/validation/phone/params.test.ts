import { describe, expect, it } from 'vitest';
import { createLogger } from '#common';
import { createPhoneRoute } from '#validation';

const route = createPhoneRoute();
const log = createLogger({ level: 'silent' });
const good = { phone_number: '0412 345 678', default_country_code: 'AU' };

describe('GET /api/phone/v1/verification parameters', () => {
  it('declares its path and the phone scope', () => {
    expect(route.path).toBe('/api/phone/v1/verification');
    expect(route.scope).toBe('phone');
    expect(route.errorExtra).toEqual({ completions: [] });
  });

  it.each([
    [{ default_country_code: 'AU' }, 'Phone number can not be blank'],
    [{ phone_number: '  ', default_country_code: 'AU' }, 'Phone number can not be blank'],
    [{ phone_number: '1'.repeat(101), default_country_code: 'AU' }, 'Phone number is too long'],
    ['phone_number=0412345678&phone_number=0412345679&default_country_code=AU', 'Phone number must be given once'],
    [{ phone_number: '0412 345 678' }, 'Default country code can not be blank'],
    [{ ...good, default_country_code: '' }, 'Default country code can not be blank'],
    [{ ...good, default_country_code: 'AUS' }, 'Default country code must be an ISO 3166-1 alpha-2 country code'],
    [{ ...good, default_country_code: 'ZZ' }, 'Default country code must be an ISO 3166-1 alpha-2 country code'],
    [{ ...good, mobile_only: 'yes' }, 'Mobile only must be true or false'],
    [
      { ...good, allowed_country_codes: 'AU,XX' },
      'Allowed country codes must be a comma-separated list of ISO 3166-1 alpha-2 country codes',
    ],
    [
      { ...good, allowed_country_codes: 'Australia' },
      'Allowed country codes must be a comma-separated list of ISO 3166-1 alpha-2 country codes',
    ],
    [{ ...good, allowed_country_codes: 'AU,'.repeat(400) }, 'Allowed country codes is too long'],
    [{ ...good, timeout: '0' }, 'Timeout must be a number of seconds above 0 and at most 60'],
    [{ ...good, timeout: 'soon' }, 'Timeout must be a number of seconds above 0 and at most 60'],
    [{ ...good, timeout: '61' }, 'Timeout must be a number of seconds above 0 and at most 60'],
    [{ ...good, format: 'xml' }, 'Format must be json'],
  ])('rejects %j with error 1000 "%s"', (params, message) => {
    const query = new URLSearchParams(params);
    expect(route.handle({ query, projectId: 'proj_test', log })).toEqual({
      status: 400,
      body: { completions: [], message, error_code: '1000', success: false },
    });
  });

  it('accepts format=json and ignores the authentication and domain parameters', () => {
    const query = new URLSearchParams({ ...good, format: 'json', key: 'k', secret: 's', domain: 'crm.example' });
    expect(route.handle({ query, projectId: 'proj_test', log })).toMatchObject({
      status: 200,
      body: { is_verified: true },
    });
  });

  // Regression: these answered 1000 here while the address endpoints accept them.
  it.each([
    ['format=JSON', { format: 'JSON' }],
    ['an empty format', { format: '' }],
    ['an empty timeout', { timeout: '' }],
  ])('accepts %s as the address endpoints do', (_what, params) => {
    const query = new URLSearchParams({ ...good, ...params });
    expect(route.handle({ query, projectId: 'proj_test', log })).toMatchObject({
      status: 200,
      body: { is_verified: true },
    });
  });
});
