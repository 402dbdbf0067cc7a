import { describe, expect, it } from 'vitest';
import { presentedCredentials } from '../../src/issuer/oauth/credentials.ts';
import { FailureWindow } from '../../src/issuer/oauth/failure-window.ts';
import { isFormContentType, parseForm } from '../../src/issuer/oauth/form.ts';
import { grantLifetime } from '../../src/issuer/oauth/lifetime.ts';
import { OAuthError } from '../../src/issuer/oauth/oauth-error.ts';
import { grantScopes } from '../../src/issuer/oauth/scope.ts';
import { createFakeClock } from '#test/fake-clock.ts';

const form = (text: string) => parseForm(Buffer.from(text), new Set(['a', 'b', 'scope', 'flag']));
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof OAuthError) return `${error.status} ${error.code}`;
    throw error;
  }
  return 'ok';
};

describe('form parsing', () => {
  it('decodes + as space and percent escapes as UTF-8', () => {
    expect(Object.fromEntries(form('a=x+y&b=%C3%A9%2B'))).toEqual({ a: 'x y', b: 'é+' });
  });

  it('drops empty values and ignores unrecognized names, even repeated ones', () => {
    expect(Object.fromEntries(form('scope=&foo=bar&&flag&a=x&foo=baz'))).toEqual({ a: 'x' });
  });

  it('refuses repeated names even when one is empty', () => {
    expect(codeOf(() => form('scope=&scope=email'))).toBe('400 invalid_request');
  });

  it('accepts only the form media type, case-insensitively, with parameters', () => {
    expect(isFormContentType('application/x-www-form-urlencoded;charset=utf-8')).toBe(true);
    expect(isFormContentType('APPLICATION/X-WWW-FORM-URLENCODED')).toBe(true);
    expect(isFormContentType('application/json')).toBe(false);
    expect(isFormContentType('multipart/form-data; boundary=x')).toBe(false);
    expect(isFormContentType(undefined)).toBe(false);
  });
});

describe('credentials', () => {
  const basic = (raw: string) => `Basic ${Buffer.from(raw).toString('base64')}`;

  it('splits Basic at the first colon and percent-decodes both parts', () => {
    expect(presentedCredentials(basic('a%3Ab:s%3A%2B+x'), new Map())).toEqual({
      clientId: 'a:b',
      clientSecret: 's:+ x',
      method: 'client_secret_basic',
    });
  });

  it('refuses an empty client id in Basic and answers an empty secret as failed authentication', () => {
    expect(codeOf(() => presentedCredentials(basic(':secret'), new Map()))).toBe('400 invalid_request');
    expect(codeOf(() => presentedCredentials(basic('id:'), new Map()))).toBe('401 invalid_client');
  });

  it('takes form credentials only when both id and secret are present', () => {
    expect(
      presentedCredentials(
        undefined,
        new Map([
          ['client_id', 'a'],
          ['client_secret', 'b'],
        ]),
      ),
    ).toMatchObject({ method: 'client_secret_post' });
    expect(codeOf(() => presentedCredentials(undefined, new Map([['client_id', 'a']])))).toBe('401 invalid_client');
    expect(codeOf(() => presentedCredentials(undefined, new Map()))).toBe('401 invalid_client');
  });
});

describe('scope rule', () => {
  it('grants every permitted scope in canonical order when omitted', () => {
    expect(grantScopes(undefined, ['email', 'address'])).toEqual(['address', 'email']);
  });

  it('refuses what is not permitted instead of down-scoping', () => {
    expect(codeOf(() => grantScopes('address phone', ['address']))).toBe('400 invalid_scope');
  });
});

describe('expires_in rule', () => {
  it('maps the documented inputs', () => {
    expect(grantLifetime(undefined)).toEqual({ seconds: 900, capped: false });
    expect(grantLifetime('3600')).toEqual({ seconds: 3600, capped: false });
    expect(grantLifetime('3601')).toEqual({ seconds: 3600, capped: true });
    expect(codeOf(() => grantLifetime('0'))).toBe('400 invalid_request');
  });
});

describe('failure window', () => {
  it('blocks a key after its failures fill the window and releases it when the window ends', () => {
    const clock = createFakeClock();
    const window = new FailureWindow({ maxFailures: 3, windowMs: 60_000 }, clock);
    for (let i = 0; i < 3; i++) window.recordFailure('k');
    expect(window.blockedFor('k')).toBe(60_000);
    clock.advance(59_000);
    expect(window.blockedFor('k')).toBe(1000);
    expect(window.blockedFor('other')).toBe(0);
    clock.advance(1000);
    expect(window.blockedFor('k')).toBe(0);
  });

  it('stays bounded in memory: the oldest keys are evicted', () => {
    const window = new FailureWindow({ maxFailures: 1, windowMs: 60_000 }, createFakeClock(), 2);
    for (const key of ['a', 'b', 'c']) window.recordFailure(key);
    expect(window.blockedFor('a')).toBe(0);
    expect(window.blockedFor('c')).toBeGreaterThan(0);
  });
});
