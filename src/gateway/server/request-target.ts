import type { IncomingMessage } from 'node:http';
import { fieldLines } from './field-lines.ts';

/**
 * RFC 9112 §3.2.2: a server must accept a request target in absolute form
 * (`GET http://api.example/x?q=1`) and then use its authority as the host, ignoring any Host
 * header. The request is rewritten to origin form in place, so routing, the header passes and
 * http-proxy-3 (which would otherwise send the absolute URL upstream) all see `/x?q=1` and
 * `Host: api.example`. The path is kept byte for byte, not normalised by a URL parser, so the
 * path guard judges exactly what is forwarded. The authority becomes the Host, so it must be a
 * valid one (RFC 3986 §3.2.2–3: a bracketed IPv6 literal or a non-empty reg-name, then an
 * optional port of digits; RFC 9112 §3.2 has an invalid Host refused with 400). Returns
 * undefined for anything else that does not start with `/`: another scheme, userinfo
 * (`http://user@host/`, RFC 9110 §4.2.4), an invalid authority, `https` on a connection
 * without TLS, `*`.
 */
const IP_LITERAL = String.raw`\[[0-9A-Fa-f:.]+\]`;
const REG_NAME_CHAR = String.raw`(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})`;
const PORT = '(?::[0-9]*)?';
const ABSOLUTE_FORM = new RegExp(String.raw`^http(s?):\/\/((?:${IP_LITERAL}|${REG_NAME_CHAR}+)${PORT})([/?].*)?$`, 'i');
/** A Host field value (RFC 9110 §7.2: uri-host [":" port]); empty is allowed, for a target without authority. */
const HOST_VALUE = new RegExp(`^(?:${IP_LITERAL}|${REG_NAME_CHAR}*)${PORT}$`);

export function toOriginForm(req: IncomingMessage, url: string): string | undefined {
  const match = ABSOLUTE_FORM.exec(url);
  // RFC 9110 §7.4: a request for an https resource must be refused unless it came over TLS.
  if (!match || (match[1] !== '' && !('encrypted' in req.socket))) return undefined;
  const rest = match[3] ?? '/';
  const origin = rest.startsWith('?') ? `/${rest}` : rest;
  req.url = origin;
  req.headers.host = match[2];
  return origin;
}

/**
 * RFC 9112 §3.2: a request with more than one Host line (field-lines.ts), or with an invalid Host
 * value, must be refused (400). The value is forwarded upstream and echoed in X-Forwarded-Host and Forwarded,
 * so `Host: a"b\c` would reach every reader of those. Returns what is wrong, or undefined.
 */
export function hostProblem(req: IncomingMessage): string | undefined {
  const lines = fieldLines(req.rawHeaders, 'host', 'Host');
  if (lines > 1) return 'More than one Host header';
  // HTTP/1.1 requires Host even with an absolute-form target (whose authority then wins). Node
  // would refuse its absence with a bare 400; the listener leaves it to this check (listener.ts).
  if (lines === 0 && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) return 'Missing Host header';
  const host = req.headers.host;
  return host === undefined || HOST_VALUE.test(host) ? undefined : 'Invalid Host header';
}
