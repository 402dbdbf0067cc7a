import type { IncomingMessage } from 'node:http';
import type { CompiledRoute } from '../routing/compile.ts';

/** Per-request facts the proxy event handlers need, kept on the request under a private symbol. */
/** The request's log record, as far as the proxy writes to it (the access log reads it after). */
export interface ReplyNote {
  readonly requestId: string;
  errorCode: string;
}

export interface ForwardState {
  readonly note: ReplyNote;
  readonly route: CompiledRoute;
  timedOut: 'connect' | 'response' | undefined;
  /** The request to the upstream once an engine has one under way: destroying it cancels it. */
  upstreamRequest: UpstreamRequest | undefined;
  /** Set when the gateway already answered (e.g. 413 mid-stream): later proxy errors are moot. */
  answered: boolean;
}

/** What an engine hands the gateway of its upstream request: a way to cancel it. */
export interface UpstreamRequest {
  destroy(): void;
}

const STATE = Symbol('tokengate.forward');
type WithState = IncomingMessage & { [STATE]?: ForwardState };

export function setForwardState(req: IncomingMessage, state: ForwardState): void {
  (req as WithState)[STATE] = state;
}

export function forwardState(req: IncomingMessage): ForwardState | undefined {
  return (req as WithState)[STATE];
}
