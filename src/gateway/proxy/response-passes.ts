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

/**
 * The names that are not simply kept, by length: most reply headers (`Content-Type`, `Date`)
 * are told apart by their length alone, and the rest by a case-insensitive compare, without
 * hashing the fresh name string the parser made (a Map keyed by name did, on every header).
 */
const kinds = new Map<string, number>([
  ...[...HOP_BY_HOP].map((name) => [name, DROP] as const),
  ['x-request-id', DROP],
  // Also hop-by-hop, but its value names more headers to drop: the later entry wins.
  ['connection', CONNECTION],
  ['transfer-encoding', TRANSFER_ENCODING],
]);
const SPECIAL: [string, number][][] = [];
for (const [name, kind] of kinds) {
  const sameLength = SPECIAL[name.length] ?? [];
  sameLength.push([name, kind]);
  SPECIAL[name.length] = sameLength;
}

/** `name` equals `lower` (lower-case letters, digits, `-`) ignoring ASCII case. */
function sameIgnoringCase(name: string, lower: string): boolean {
  for (let i = 0; i < lower.length; i++) {
    const c = name.charCodeAt(i);
    const k = lower.charCodeAt(i);
    if (c !== k && !(k >= 0x61 && k <= 0x7a && c === k - 0x20)) return false;
  }
  return true;
}

/** What to do with a header name as the upstream spelled it. */
function kindOf(name: string): number {
  const candidates = SPECIAL[name.length];
  if (candidates === undefined) return KEEP;
  for (const [lower, kind] of candidates) if (sameIgnoringCase(name, lower)) return kind;
  return KEEP;
}

/**
 * The response header passes, run on the upstream's header list (name, value, name, value…) into the flat list the
 * reply is written with (one `writeHead`, no per-header `setHeader`, duplicates such as
 * `set-cookie` kept as sent): the upstream's connection-level headers describe its hop, not the
 * client's, so they are dropped; the reply says close when it is not to keep its connection
 * (`keepAlive` is the reply's `shouldKeepAlive`: false when the client asked to close, and while
 * the gateway drains, see drain.ts); the reply carries this request's id; an HTTP/1.0 client
 * cannot read chunked framing, so Node re-frames.
 */
export function responseHeaders(
  raw: readonly string[],
  state: ForwardState | undefined,
  http10: boolean,
  keepAlive: boolean,
): string[] {
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
  // As http-proxy-3 answers: keep-alive, unless Node will close (the client asked to, or the
  // gateway drains: this header must not contradict it) or the client speaks HTTP/1.0.
  const close = http10 || !keepAlive;
  out.push('connection', close ? 'close' : 'keep-alive');
  if (state !== undefined) out.push('x-request-id', state.note.requestId);
  return out;
}
