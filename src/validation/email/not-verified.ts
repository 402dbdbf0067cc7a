/**
 * The closed set of reasons an address is not verified (`not_verified_code`), with the public
 * wording (`not_verified_reason`). FORMAT_INVALID is the documented code; the others name
 * what the domain check found. DOMAIN_UNVERIFIABLE is not a verdict: DNS did not answer, so
 * `is_verified` is null rather than a guess.
 */
export const EMAIL_NOT_VERIFIED = {
  FORMAT_INVALID: 'The email format is incorrect',
  DOMAIN_NOT_FOUND: 'The email domain does not exist',
  DOMAIN_NO_MAIL_SERVER: 'The email domain has no mail server',
  DOMAIN_REJECTS_MAIL: 'The email domain does not accept email',
  DOMAIN_UNVERIFIABLE: 'The email domain could not be checked because DNS did not answer',
} as const;

export type EmailNotVerifiedCode = keyof typeof EMAIL_NOT_VERIFIED;
