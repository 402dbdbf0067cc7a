import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';

/**
 * Disposable (throw-away) mail domains from the community blocklist the package republishes.
 * Built once: the package's own `isDisposableEmailDomain` rebuilds its Set on every call.
 */
const DISPOSABLE: ReadonlySet<string> = disposableEmailBlocklistSet();

/** True for a listed domain or any sub-domain of one (`x.mailinator.com`). */
export function isDisposableDomain(asciiDomain: string): boolean {
  const labels = asciiDomain.split('.');
  for (let start = 0; start < labels.length - 1; start += 1) {
    if (DISPOSABLE.has(labels.slice(start).join('.'))) return true;
  }
  return false;
}
