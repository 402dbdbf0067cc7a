import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/**
 * RFC 9110 §7.6.1: connection-specific headers describe one hop and must not be forwarded,
 * and neither may any header the `Connection` header names (`Connection: close, x-secret`).
 * `transfer-encoding` stays: Node re-frames the body itself and needs it to stream chunked bodies.
 */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'upgrade'];

export function stripHopByHop(headers: IncomingHttpHeaders | OutgoingHttpHeaders): void {
  const connection = headers.connection;
  if (typeof connection === 'string') {
    for (const name of connection.split(',')) {
      const key = name.trim().toLowerCase();
      if (key && key !== 'transfer-encoding') delete headers[key];
    }
  }
  for (const name of HOP_BY_HOP) delete headers[name];
}
