/**
 * The WebAuthn relying party: the site a passkey belongs to (`id`, a host name) and the origin
 * the browser must report. Both come from the portal's public URL (PORTAL_URL, else the admin
 * server's), never from a request's Host header.
 */
export interface RelyingParty {
  readonly id: string;
  readonly origin: string;
  readonly name: string;
}

const LOOPBACK_ADDRESSES = new Set(['127.0.0.1', '[::1]']);

/**
 * Browsers refuse an IP address as a passkey's site, so a portal at a loopback address (the
 * default, `http://127.0.0.1:3001/portal`) has its passkeys at `localhost` on the same port:
 * the one name browsers also treat as a secure context over plain http.
 */
export function relyingParty(portalUrl: string): RelyingParty {
  const url = new URL(portalUrl);
  if (LOOPBACK_ADDRESSES.has(url.hostname)) url.hostname = 'localhost';
  return { id: url.hostname, origin: url.origin, name: 'tokengate' };
}
