import type { IncomingHttpHeaders } from 'node:http';
import type { StripPass } from './context.ts';

/**
 * RFC 9110 §7.6.1: connection-specific headers describe one hop and must not be forwarded,
 * and neither may any header the `Connection` header names (`Connection: close, x-secret`).
 * `transfer-encoding` stays: Node re-frames the body itself and needs it to stream chunked bodies.
 */
export const HOP_BY_HOP: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'upgrade']);

export const isHopByHop: StripPass = (name, inbound) => HOP_BY_HOP.has(name) || namedByConnection(name, inbound.connection);

function namedByConnection(name: string, connection: IncomingHttpHeaders['connection']): boolean {
  // The usual values name no header: answer without splitting.
  if (connection === undefined || connection === 'keep-alive' || connection === 'close' || name === 'transfer-encoding') return false;
  return connection.split(',').some((token) => token.trim().toLowerCase() === name);
}
