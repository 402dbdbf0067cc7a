/**
 * The spec's client guidance: HTTPS for token requests and API calls. Plain http is accepted
 * only to loopback (local stacks, tests) or when the caller opts in explicitly, so a credential
 * or a bearer token is never sent in clear across a network by accident.
 */
const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);
/**
 * 127.0.0.0/8. The URL parser writes every IPv4 host as four decimal parts (0x7f.1 becomes
 * 127.0.0.1), so a host of any other shape, such as 127.example.com, is a name to resolve.
 */
const LOOPBACK_IPV4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

export function isLoopback(url: URL): boolean {
  return LOOPBACK_HOSTS.has(url.hostname) || LOOPBACK_IPV4.test(url.hostname);
}

/**
 * Throws a TypeError naming the option when `url` would carry a secret in clear. A URL with
 * user:password@ is refused without quoting it: fetch refuses it too, with the whole URL,
 * password included, in its message.
 */
export function requireSecureUrl(url: URL, what: string, allowInsecureHttp: boolean): void {
  if (url.username !== '' || url.password !== '') {
    throw new TypeError(`${what} must not contain user:password@ (give the credentials as clientId and clientSecret)`);
  }
  if (url.protocol === 'https:') return;
  if (url.protocol !== 'http:') throw new TypeError(`${what} must be an absolute http(s) URL`);
  if (!allowInsecureHttp && !isLoopback(url)) {
    throw new TypeError(`${what} uses plain http to a non-loopback host; use https (or set allowInsecureHttp: true)`);
  }
}
