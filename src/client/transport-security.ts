/**
 * The spec's client guidance: HTTPS for token requests and API calls. Plain http is accepted
 * only to loopback (local stacks, tests) or when the caller opts in explicitly, so a credential
 * or a bearer token is never sent in clear across a network by accident.
 */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLoopback(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname) || url.hostname.startsWith('127.');
}

/** Throws a TypeError naming the option when `url` would carry a secret in clear. */
export function requireSecureUrl(url: URL, what: string, allowInsecureHttp: boolean): void {
  if (url.protocol === 'https:') return;
  if (url.protocol !== 'http:') throw new TypeError(`${what} must be an absolute http(s) URL`);
  if (!allowInsecureHttp && !isLoopback(url)) {
    throw new TypeError(`${what} uses plain http to a non-loopback host; use https (or set allowInsecureHttp: true)`);
  }
}
