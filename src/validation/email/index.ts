export { createEmailRoute, type EmailRouteOptions, EMAIL_PATH, DEFAULT_DNS_TIMEOUT_MS } from './route.ts';
export { emailEnvironment, emailRouteOptionsFromEnv } from './env.ts';
export { createMxLookup, type MailRouting, type MxLookup, type MxLookupOptions, type DnsFailure } from './mx-lookup.ts';
export { cachedLookup, type LookupCacheOptions } from './lookup-cache.ts';
export { EMAIL_NOT_VERIFIED, type EmailNotVerifiedCode } from './not-verified.ts';
export type { EmailVerification } from './verify.ts';
