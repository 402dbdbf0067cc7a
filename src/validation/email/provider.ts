import type { MailRouting } from './mx-lookup.ts';

/** Second-level labels under which registrations happen one level deeper (`example.com.au`). */
const SHARED_SECOND_LEVEL: ReadonlySet<string> = new Set(['ac', 'co', 'com', 'edu', 'gov', 'net', 'org']);

/**
 * The organisation that runs a domain's mail (`provider` feature): the registrable part of the
 * most preferred MX host, e.g. `aspmx.l.google.com` → `google.com`. A heuristic without a full
 * public-suffix list: two labels, or three under a country's `com`/`co`/`net`-style level.
 */
export function providerDomain(routing: MailRouting): string | null {
  if (routing.kind !== 'mx' && routing.kind !== 'implicit') return null;
  const host = routing.hosts[0];
  if (host === undefined) return null;
  const labels = host.split('.');
  const tld = labels[labels.length - 1] ?? '';
  const second = labels[labels.length - 2] ?? '';
  const keep = tld.length === 2 && SHARED_SECOND_LEVEL.has(second) ? 3 : 2;
  return labels.slice(-keep).join('.');
}
