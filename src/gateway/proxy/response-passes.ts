import type { IncomingMessage } from 'node:http';
import { stripHopByHop } from './passes/index.ts';
import type { ForwardState } from './state.ts';

/**
 * Response header passes, run on the upstream's response before http-proxy-3 copies it to the
 * client: the upstream's connection-level headers describe its hop, not the client's.
 */
export function applyResponsePasses(proxyRes: IncomingMessage, state: ForwardState): void {
  stripHopByHop(proxyRes.headers);
  // http-proxy-3 falls back to keep-alive; a client that asked to close gets its close.
  if (state.clientConnection && /\bclose\b/i.test(state.clientConnection)) proxyRes.headers.connection = 'close';
  proxyRes.headers['x-request-id'] = state.note.requestId;
}
