import type { IncomingMessage } from 'node:http';
import { HOP_BY_HOP } from './passes/hop-by-hop.ts';
import type { ForwardState } from './state.ts';

/** Adds the extra hop-by-hop names a `Connection` value lists (RFC 9110 §7.6.1); the usual values list none. */
function addNamed(named: Set<string> | undefined, value: string): Set<string> | undefined {
  if (value === 'keep-alive' || value === 'close' || value === 'Keep-Alive' || value === 'Close') return named;
  let out = named;
  for (const token of value.split(',')) {
    const name = token.trim().toLowerCase();
    if (name === '' || name === 'keep-alive' || name === 'close') continue;
    out ??= new Set();
    out.add(name);
  }
  return out;
}

const KEEP = 0;
const DROP = 1;
const CONNECTION = 2;
const TRANSFER_ENCODING = 3;
/** What to do with a header name as the upstream spelled it: a few names repeat on every reply. */
const kinds = new Map<string, number>();

function kindOf(name: string): number {
  const known = kinds.get(name);
  if (known !== undefined) return known;
  const lower = name.toLowerCase();
  const kind = lower === 'connection' ? CONNECTION : lower === 'transfer-encoding' ? TRANSFER_ENCODING : HOP_BY_HOP.has(lower) || lower === 'x-request-id' ? DROP : KEEP;
  if (kinds.size >= 1_024) kinds.clear();
  kinds.set(name, kind);
  return kind;
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
  let named: Set<string> | undefined;
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    const kind = kindOf(name);
    if (kind === KEEP || (kind === TRANSFER_ENCODING && !http10)) out.push(name, raw[i + 1] as string);
    else if (kind === CONNECTION) named = addNamed(named, raw[i + 1] as string);
  }
  if (named !== undefined) {
    for (let i = out.length - 2; i >= 0; i -= 2) if (named.has((out[i] as string).toLowerCase())) out.splice(i, 2);
  }
  // As http-proxy-3 answers: keep-alive, unless the client asked to close or speaks HTTP/1.0.
  const close = http10 || (state?.clientConnection !== undefined && /\bclose\b/i.test(state.clientConnection));
  out.push('connection', close ? 'close' : 'keep-alive');
  if (state !== undefined) out.push('x-request-id', state.note.requestId);
  return out;
}
