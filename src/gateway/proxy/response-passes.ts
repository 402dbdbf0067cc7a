import type { IncomingMessage } from 'node:http';
import { copyWithout, isHopByHop } from './passes/index.ts';
import type { ForwardState } from './state.ts';

const RESPONSE_STRIPS = [isHopByHop];

/**
 * Response header passes, run on the upstream's response before http-proxy-3 copies it to the
 * client: the upstream's connection-level headers describe its hop, not the client's.
 */
export function applyResponsePasses(proxyRes: IncomingMessage, state: ForwardState): void {
  const headers = copyWithout(proxyRes.headers, RESPONSE_STRIPS);
  // http-proxy-3 falls back to keep-alive; a client that asked to close gets its close.
  if (state.clientConnection && /\bclose\b/i.test(state.clientConnection)) headers.connection = 'close';
  headers['x-request-id'] = state.note.requestId;
  proxyRes.headers = headers;
}
