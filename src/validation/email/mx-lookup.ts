import { Resolver } from 'node:dns/promises';
import type { Result } from '#common';

/**
 * Where mail for a domain goes, per RFC 5321 section 5.1: its MX records; when it has none,
 * the domain's own A/AAAA address (the "implicit MX"); a null MX (RFC 7505, a single MX of ".")
 * means the domain accepts no mail. When DNS cannot answer, the outcome says so: `unknown`.
 */
export type MailRouting =
  | { readonly kind: 'mx'; readonly hosts: readonly string[] }
  | { readonly kind: 'implicit'; readonly hosts: readonly string[] }
  | { readonly kind: 'null_mx' }
  | { readonly kind: 'no_mail_host' }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'unknown'; readonly reason: DnsFailure };

export type DnsFailure = 'timeout' | 'servfail' | 'refused' | 'error';

export interface MxLookupOptions {
  /** Resolver addresses (`ip` or `ip:port`); unset = the system's resolvers. */
  readonly servers?: readonly string[];
  /** Whole-lookup deadline in milliseconds (MX plus the A/AAAA fallback). */
  readonly timeoutMs: number;
}

export type MxLookup = (asciiDomain: string) => Promise<MailRouting>;

/** A DNS answer, or the resolver's error code. */
async function ask<T>(query: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await query() };
  } catch (error) {
    return { ok: false, error: (error as NodeJS.ErrnoException).code ?? 'UNKNOWN' };
  }
}

/** c-ares codes: ENODATA = the name exists without records of that type; ENOTFOUND = NXDOMAIN. */
function failure(code: string): DnsFailure {
  if (code === 'ETIMEOUT' || code === 'ECANCELLED') return 'timeout';
  if (code === 'ESERVFAIL') return 'servfail';
  if (code === 'EREFUSED' || code === 'ECONNREFUSED') return 'refused';
  return 'error';
}

function fromMx(records: readonly { exchange: string; priority: number }[]): MailRouting {
  const real = records.filter((mx) => mx.exchange !== '' && mx.exchange !== '.');
  if (real.length === 0) return { kind: 'null_mx' };
  const hosts = [...real].sort((a, b) => a.priority - b.priority).map((mx) => mx.exchange.toLowerCase());
  return { kind: 'mx', hosts };
}

async function implicitMx(resolver: Resolver, domain: string): Promise<MailRouting> {
  const [v4, v6] = await Promise.all([ask(() => resolver.resolve4(domain)), ask(() => resolver.resolve6(domain))]);
  if ((v4.ok && v4.value.length > 0) || (v6.ok && v6.value.length > 0)) return { kind: 'implicit', hosts: [domain] };
  const codes = [v4, v6].flatMap((answer) => (answer.ok ? [] : [answer.error]));
  const hard = codes.find((code) => code !== 'ENODATA' && code !== 'ENOTFOUND');
  if (hard) return { kind: 'unknown', reason: failure(hard) };
  return codes.includes('ENOTFOUND') ? { kind: 'not_found' } : { kind: 'no_mail_host' };
}

async function route(resolver: Resolver, domain: string): Promise<MailRouting> {
  const mx = await ask(() => resolver.resolveMx(domain));
  if (mx.ok && mx.value.length > 0) return fromMx(mx.value);
  if (!mx.ok && mx.error === 'ENOTFOUND') return { kind: 'not_found' };
  if (!mx.ok && mx.error !== 'ENODATA') return { kind: 'unknown', reason: failure(mx.error) };
  return implicitMx(resolver, domain);
}

/**
 * One Resolver per lookup: `cancel()` (how the deadline is enforced) cancels every query of a
 * resolver, so sharing one would let a slow domain cancel its neighbours' lookups.
 */
export function createMxLookup(options: MxLookupOptions): MxLookup {
  // Misconfigured servers fail here, at start-up, not on the first request.
  if (options.servers && options.servers.length > 0) new Resolver().setServers([...options.servers]);
  return async (domain) => {
    const resolver = new Resolver({ timeout: options.timeoutMs, tries: 1 });
    if (options.servers && options.servers.length > 0) resolver.setServers([...options.servers]);
    const deadline = setTimeout(() => resolver.cancel(), options.timeoutMs);
    try {
      return await route(resolver, domain);
    } finally {
      clearTimeout(deadline);
    }
  };
}
