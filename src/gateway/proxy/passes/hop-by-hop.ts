import type { IncomingHttpHeaders } from 'node:http';
import type { StripPass } from './context.ts';

/**
 * RFC 9110 §7.6.1: connection-specific headers describe one hop and must not be forwarded,
 * and neither may any header the `Connection` header names (`Connection: close, x-secret`).
 * `transfer-encoding` stays: Node re-frames the body itself and needs it to stream chunked bodies.
 */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
]);

/**
 * Request side only, `expect` too: not hop-by-hop by RFC, but this hop has already answered it
 * (the listener sends the client `100 Continue` when the request's turn comes, before the handler
 * runs) and the body is streamed upstream at once. Forwarded, it would also make http-proxy-3 skip its `proxyReq` event, which
 * arms the upstream timeouts and lets a 413 abort the upstream request (engine-http-proxy.ts): the request
 * would hang on a stuck upstream and hold an upstream socket after its 413.
 */
const NOT_FORWARDED: ReadonlySet<string> = new Set([...HOP_BY_HOP, 'expect']);

export const isHopByHop: StripPass = (name, inbound) =>
  NOT_FORWARDED.has(name) || namedByConnection(name, inbound.connection);

function namedByConnection(name: string, connection: IncomingHttpHeaders['connection']): boolean {
  // The usual values name no header: answer without splitting.
  if (connection === undefined || connection === 'keep-alive' || connection === 'close' || name === 'transfer-encoding')
    return false;
  return connection.split(',').some((token) => token.trim().toLowerCase() === name);
}
