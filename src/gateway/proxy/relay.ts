import type { ClientRequest, IncomingMessage, InformationEvent, ServerResponse } from 'node:http';
import { isHopByHop } from './passes/index.ts';

/**
 * What of the upstream's reply reaches the client after its head: the body, and the 1xx
 * replies that come before the head. Each is relayed by listeners shared by every request,
 * which find the client's response under a private symbol instead of in a closure per request.
 */
const CLIENT = Symbol('tokengate.client');
type Relaying = (IncomingMessage | ClientRequest) & { [CLIENT]?: ServerResponse };

/**
 * Streams the upstream's reply body to the client. Two shared listeners instead of `pipe`,
 * which adds and then removes seven listeners per reply. A client that goes away makes
 * http-proxy-3 destroy the upstream request.
 */
export function relayBody(proxyRes: IncomingMessage, res: ServerResponse): void {
  (proxyRes as Relaying)[CLIENT] = res;
  proxyRes.on('data', relayChunk);
  proxyRes.on('end', relayEnd);
  proxyRes.on('close', onUpstreamReplyClosed);
}

/** RFC 9110 §15.2: a proxy forwards 1xx replies (see forwardInformational). */
export function relayInformational(proxyReq: ClientRequest, res: ServerResponse): void {
  (proxyReq as Relaying)[CLIENT] = res;
  proxyReq.on('information', forwardInformational);
}

/** The client's response an upstream request relays to (set by relayInformational). */
export function relayedTo(proxyReq: ClientRequest): ServerResponse | undefined {
  return (proxyReq as Relaying)[CLIENT];
}

/** Streams a chunk of the upstream's reply to the client, pausing the upstream while the client is slow. */
function relayChunk(this: IncomingMessage, chunk: Buffer): void {
  const res = (this as Relaying)[CLIENT] as ServerResponse;
  if (res.write(chunk) || res.destroyed) return;
  this.pause();
  res.once('drain', () => this.resume());
}

function relayEnd(this: IncomingMessage): void {
  (this as Relaying)[CLIENT]?.end();
}

/** An upstream that dies mid-body leaves the relayed reply open forever: cut it instead. */
function onUpstreamReplyClosed(this: IncomingMessage): void {
  if (!this.complete) (this as Relaying)[CLIENT]?.destroy();
}

/** RFC 9110 §8.6 and §6.1: no 1xx reply may carry Content-Length or Transfer-Encoding. */
function isBodyFraming(name: string): boolean {
  return name === 'content-length' || name === 'transfer-encoding';
}

/** Node's client reports each 1xx reply as an 'information' event. */
function forwardInformational(this: ClientRequest, info: InformationEvent): void {
  const res = (this as Relaying)[CLIENT];
  if (res) sendInformational(res, info.statusCode, info.headers);
}

/**
 * Node's server can write two 1xx replies: 102 and 103 (Early Hints, whose `link` Node
 * requires), without the upstream's hop-by-hop and framing headers. Not to an HTTP/1.0 client,
 * which cannot read them, and never once the final reply has started. 100 Continue was answered
 * at this hop. Both engines relay through here.
 */
export function sendInformational(
  res: ServerResponse,
  statusCode: number,
  headers: Record<string, string | string[] | undefined>,
): void {
  if (res.headersSent || res.destroyed || res.req.httpVersion === '1.0') return;
  if (statusCode === 102) res.writeProcessing();
  else if (statusCode === 103 && typeof headers['link'] === 'string') {
    const hints: Record<string, string> = {};
    for (const name in headers) {
      const value = headers[name];
      if (typeof value === 'string' && !isHopByHop(name, headers) && !isBodyFraming(name)) hints[name] = value;
    }
    // Node re-validates the link value and throws on one it cannot parse: such a hint is dropped.
    try {
      res.writeEarlyHints(hints);
    } catch {
      /* a hint is optional */
    }
  }
}
