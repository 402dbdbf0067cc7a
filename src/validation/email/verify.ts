import { isDisposableDomain } from './disposable.ts';
import { type Feature, isFormatOnly } from './features.ts';
import type { MailRouting, MxLookup } from './mx-lookup.ts';
import { EMAIL_NOT_VERIFIED, type EmailNotVerifiedCode } from './not-verified.ts';
import { providerDomain } from './provider.ts';
import { isPublicProvider } from './public-providers.ts';
import { isRoleAccount } from './role-accounts.ts';
import { parseEmail, type SyntaxResult } from './syntax.ts';

export type CheckOutcome = 'passed' | 'failed' | 'unknown' | 'not_requested' | 'not_performed';

/** The documented fields, plus `checks`: which checks ran and what each concluded. */
export interface EmailVerification {
  readonly success: true;
  readonly email_account: string | null;
  readonly email_domain: string | null;
  readonly email_provider_domain?: string | null;
  readonly verified_email: string | null;
  /** null = could not be determined (DNS did not answer). */
  readonly is_verified: boolean | null;
  readonly is_disposable: boolean | null;
  readonly is_role: boolean | null;
  readonly is_public: boolean | null;
  /** Always null: only an SMTP probe could tell, and none is performed. */
  readonly is_catch_all: null;
  readonly not_verified_reason: string | null;
  readonly not_verified_code: EmailNotVerifiedCode | null;
  readonly checks: { readonly format: CheckOutcome; readonly domain: CheckOutcome; readonly connection: CheckOutcome };
}

/** The reason fields, after the classifications as the public field list has them (reason, then code). */
function reason(code: EmailNotVerifiedCode | null) {
  return { not_verified_reason: code ? EMAIL_NOT_VERIFIED[code] : null, not_verified_code: code };
}

function domainVerdict(routing: MailRouting): {
  verified: boolean | null;
  code: EmailNotVerifiedCode | null;
  domain: CheckOutcome;
} {
  if (routing.kind === 'mx' || routing.kind === 'implicit') return { verified: true, code: null, domain: 'passed' };
  if (routing.kind === 'unknown') return { verified: null, code: 'DOMAIN_UNVERIFIABLE', domain: 'unknown' };
  const code =
    routing.kind === 'null_mx'
      ? 'DOMAIN_REJECTS_MAIL'
      : routing.kind === 'not_found'
        ? 'DOMAIN_NOT_FOUND'
        : 'DOMAIN_NO_MAIL_SERVER';
  return { verified: false, code, domain: 'failed' };
}

function unclassified(syntax: SyntaxResult, features: ReadonlySet<Feature>): EmailVerification {
  return {
    success: true,
    email_account: syntax.account,
    email_domain: syntax.domain,
    ...(features.has('provider') ? { email_provider_domain: null } : {}),
    verified_email: null,
    is_verified: syntax.ok,
    is_disposable: null,
    is_role: null,
    is_public: null,
    is_catch_all: null,
    ...reason(syntax.ok ? null : 'FORMAT_INVALID'),
    checks: { format: syntax.ok ? 'passed' : 'failed', domain: 'not_requested', connection: 'not_requested' },
  };
}

/**
 * Verifies one address. `format` alone: syntax only, the classifications null (as documented).
 * Otherwise: syntax, then the lists, then where mail for the domain goes. Disposable, role and
 * public addresses still receive mail, so they are flagged but not "not verified".
 */
export async function verifyEmail(
  input: string,
  features: ReadonlySet<Feature>,
  lookup: MxLookup,
): Promise<EmailVerification> {
  const syntax = parseEmail(input);
  if (!syntax.ok || isFormatOnly(features)) {
    const result = unclassified(syntax, features);
    return syntax.ok ? { ...result, verified_email: `${syntax.account}@${syntax.domain}` } : result;
  }
  const routing = await lookup(syntax.asciiDomain);
  const { domain, verified, code } = domainVerdict(routing);
  return {
    success: true,
    email_account: syntax.account,
    email_domain: syntax.domain,
    ...(features.has('provider') ? { email_provider_domain: providerDomain(routing) } : {}),
    verified_email: `${syntax.account}@${syntax.domain}`,
    is_verified: verified,
    is_disposable: isDisposableDomain(syntax.asciiDomain),
    is_role: isRoleAccount(syntax.account),
    is_public: isPublicProvider(syntax.asciiDomain),
    is_catch_all: null,
    ...reason(code),
    checks: { format: 'passed', domain, connection: features.has('connection') ? 'not_performed' : 'not_requested' },
  };
}
