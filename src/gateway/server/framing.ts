import type { IncomingMessage } from 'node:http';

/**
 * RFC 9112 §6.3: a request whose Transfer-Encoding does not end in `chunked` has no length anyone
 * can rely on, and must be refused with 400. Node's parser does so, except for a request with an
 * `Upgrade` header: it stops parsing at the head (the rest would belong to the new protocol) and
 * leaves the Transfer-Encoding unchecked. The gateway upgrades nothing and forwards such a
 * request as a plain one, and the header passes keep `transfer-encoding` (hop-by-hop.ts), so
 * `Transfer-Encoding: identity` reached the upstream, whose own parser refused it; a more lenient
 * one would read the body to the end of the pooled connection, other clients' requests included.
 * Returns what is wrong, or undefined (most requests: no Transfer-Encoding, one property read).
 */
export function framingProblem(req: IncomingMessage): string | undefined {
  const codings = req.headers['transfer-encoding'];
  if (codings === undefined) return undefined;
  const last = codings.slice(codings.lastIndexOf(',') + 1).trim();
  return last.toLowerCase() === 'chunked' ? undefined : 'Invalid Transfer-Encoding';
}
