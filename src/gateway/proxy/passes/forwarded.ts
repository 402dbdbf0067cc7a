import type { HeaderPass, StripPass } from './context.ts';

/**
 * `X-Forwarded-For` gets the peer address appended (the last entry is the one this gateway
 * saw; earlier ones are whatever the client claimed). Proto and Host are what this hop saw,
 * replacing any inbound value. An inbound RFC 7239 `Forwarded` gets this hop's element
 * appended the same way (replacing it when it is not well-formed), so an upstream that reads it
 * sees the truth for the last hop; none is added when the client sent none (each outgoing header costs the proxy, see docs/performance.md).
 */
export const setForwarded: HeaderPass = (headers, ctx) => {
  const prior = headers['x-forwarded-for'];
  const chain = Array.isArray(prior) ? prior.join(', ') : prior;
  headers['x-forwarded-for'] = chain ? `${chain}, ${ctx.remoteAddress}` : ctx.remoteAddress;
  const proto = ctx.encrypted ? 'https' : 'http';
  headers['x-forwarded-proto'] = proto;
  const host = headers.host;
  if (host) headers['x-forwarded-host'] = host;
  else delete headers['x-forwarded-host'];
  const forwarded = headers.forwarded;
  if (forwarded !== undefined) {
    const element = forwardedElement(ctx.remoteAddress, host, proto);
    headers.forwarded = forwarded && FORWARDED_LIST.test(forwarded) ? `${forwarded}, ${element}` : element;
  }
};

/**
 * RFC 7239 §4 syntax: `token=token|quoted-string` pairs separated by `;` (within an element) and
 * `,` (between elements), empty list members and whitespace around separators tolerated. A value
 * that is not, such as one ending inside a quoted string (`for="x`), would swallow the element
 * appended after it, and a parser upstream would read the client's text, or nothing, as this
 * hop's: such a value is replaced. Whitespace is taken before a pair only, so each value has one
 * parse and a failing one costs linear time.
 */
const OWS = '[ \\t]*';
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\xff]|\\\\[\\t \\x21-\\x7e\\x80-\\xff])*"';
const PAIR = `${OWS}${TOKEN}=(?:${TOKEN}|${QUOTED})`;
const FORWARDED_LIST = new RegExp(`^(?:${PAIR})?(?:${OWS}[;,](?:${PAIR})?)*${OWS}$`);

/**
 * The inbound headers that state what a proxy saw and that this gateway does not set: passed
 * on, the client's `X-Forwarded-Port` would sit beside this hop's Proto and Host as if this hop
 * had said it, and `X-Real-IP` is commonly trusted as the client address.
 */
export const isForwardingClaim: StripPass = (name) => name === 'x-forwarded-port' || name === 'x-real-ip';

/** RFC 7239 §4–6: `for` quoted (with brackets) for an IPv6 address, `host` always quoted (it may hold `:`). */
function forwardedElement(address: string, host: string | undefined, proto: string): string {
  const node = address.includes(':') ? `"[${address}]"` : address || 'unknown';
  return host ? `for=${node};host=${quoted(host)};proto=${proto}` : `for=${node};proto=${proto}`;
}

function quoted(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}
