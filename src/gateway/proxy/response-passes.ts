import type { IncomingMessage } from 'node:http';
import { HOP_BY_HOP } from './passes/hop-by-hop.ts';
import type { ForwardState } from './state.ts';

/** Extra hop-by-hop names a `Connection` header lists (RFC 9110 §7.6.1), or undefined (the usual case). */
function namedByConnection(raw: readonly string[]): Set<string> | undefined {
  let named: Set<string> | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() !== 'connection') continue;
    for (const token of (raw[i + 1] as string).split(',')) {
      const name = token.trim().toLowerCase();
      if (name === '' || name === 'keep-alive' || name === 'close') continue;
      named ??= new Set();
      named.add(name);
    }
  }
  return named;
}

/**
 * The response header passes, run on the upstream's raw header list into the flat list the
 * reply is written with (one `writeHead`, no per-header `setHeader`, duplicates such as
 * `set-cookie` kept as sent): the upstream's connection-level headers describe its hop, not the
 * client's, so they are dropped; a client that asked to close gets its close; the reply
 * carries this request's id; an HTTP/1.0 client cannot read chunked framing, so Node re-frames.
 */
export function responseHeaders(proxyRes: IncomingMessage, state: ForwardState | undefined, http10: boolean): string[] {
  const raw = proxyRes.rawHeaders;
  const named = namedByConnection(raw);
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || lower === 'x-request-id' || named?.has(lower) || (http10 && lower === 'transfer-encoding')) continue;
    out.push(name, raw[i + 1] as string);
  }
  // As http-proxy-3 answers: keep-alive, unless the client asked to close or speaks HTTP/1.0.
  const close = http10 || (state?.clientConnection !== undefined && /\bclose\b/i.test(state.clientConnection));
  out.push('connection', close ? 'close' : 'keep-alive');
  if (state !== undefined) out.push('x-request-id', state.note.requestId);
  return out;
}
