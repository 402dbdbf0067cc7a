import { apiError, type Clock, systemClock } from '#common';
import type { ValidationRequest, ValidationResponse, ValidationRoute } from '../types.ts';
import { z } from 'zod';
import { featuresParam } from './features.ts';
import { cachedLookup } from './lookup-cache.ts';
import { createMxLookup, type MxLookup } from './mx-lookup.ts';
import { format, once, parseQuery } from '../query-schema.ts';
import { verifyEmail } from './verify.ts';

export interface EmailRouteOptions {
  /** DNS servers for the MX lookup (`ip` or `ip:port`); unset = the system's resolvers. */
  readonly dnsServers?: readonly string[];
  /** Deadline of one domain lookup, milliseconds (default 1500). */
  readonly dnsTimeoutMs?: number;
  /** Remember definite DNS answers per domain (5 min found, 1 min not found). Default true. */
  readonly dnsCache?: boolean;
  /** Time source of the DNS cache (tests pass a fake one). */
  readonly clock?: Clock;
}

export const EMAIL_PATH = '/api/email/v1/verification';
export const DEFAULT_DNS_TIMEOUT_MS = 1500;
/** Far above the 254-octet address limit, so over-long addresses still get a FORMAT_INVALID verdict. */
const MAX_EMAIL_PARAM = 1024;
const ERROR_EXTRA = { completions: [] } as const;

/** The parameters, in the order their errors are reported. */
const emailQuery = z.object({
  email: once('Email', MAX_EMAIL_PARAM).pipe(
    z
      .string({ error: 'Email can not be blank' })
      .refine((value) => value.trim() !== '', { error: 'Email can not be blank' }),
  ),
  features: once('Features', MAX_EMAIL_PARAM).pipe(featuresParam),
  format,
});

function invalid(message: string): ValidationResponse {
  return apiError('validation_failed', { message, extra: ERROR_EXTRA });
}

function checkedTimeout(ms: number | undefined): number {
  const value = ms ?? DEFAULT_DNS_TIMEOUT_MS;
  if (!Number.isInteger(value) || value < 1 || value > 30_000) {
    throw new TypeError(`dnsTimeoutMs: must be an integer from 1 to 30000, got ${String(ms)}`);
  }
  return value;
}

export function createEmailRoute(options: EmailRouteOptions = {}): ValidationRoute {
  const timeoutMs = checkedTimeout(options.dnsTimeoutMs);
  const direct = createMxLookup({ timeoutMs, ...(options.dnsServers ? { servers: options.dnsServers } : {}) });
  const lookup = options.dnsCache === false ? direct : cachedLookup(direct, { clock: options.clock ?? systemClock });
  // The address is personal data: only its domain and the DNS failure go to the log.
  const loggedLookup =
    (request: ValidationRequest): MxLookup =>
    async (domain) => {
      const routing = await lookup(domain);
      if (routing.kind === 'unknown') {
        request.log.warn(
          { domain, dns: routing.reason, projectId: request.projectId },
          'email domain check: DNS did not answer',
        );
      }
      return routing;
    };
  async function handle(request: ValidationRequest): Promise<ValidationResponse> {
    const params = parseQuery(emailQuery, request.query);
    if (!params.ok) return invalid(params.error);
    return { status: 200, body: await verifyEmail(params.value.email, params.value.features, loggedLookup(request)) };
  }
  return { path: EMAIL_PATH, scope: 'email', errorExtra: ERROR_EXTRA, handle };
}
