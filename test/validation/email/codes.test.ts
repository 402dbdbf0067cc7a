import { describe, expect, it } from 'vitest';
import { EMAIL_NOT_VERIFIED } from '../../../src/validation/email/index.ts';

// A closed set that is part of the public API (docs/api.md): changing it is a breaking change.
describe('closed value sets of the email result', () => {
  it('keeps the email not_verified codes and reasons', () => {
    expect(EMAIL_NOT_VERIFIED).toEqual({
      FORMAT_INVALID: 'The email format is incorrect',
      DOMAIN_NOT_FOUND: 'The email domain does not exist',
      DOMAIN_NO_MAIL_SERVER: 'The email domain has no mail server',
      DOMAIN_REJECTS_MAIL: 'The email domain does not accept email',
      DOMAIN_UNVERIFIABLE: 'The email domain could not be checked because DNS did not answer',
    });
  });
});
