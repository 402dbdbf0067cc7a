import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UpstreamFailure } from './failure.ts';
import type { ForwardState } from './state.ts';

/**
 * How a verified request reaches the upstream. Two engines keep the same contract (the
 * parametrised suites in test/gateway run against each): `http-proxy-3` on Node's HTTP client,
 * `undici` on undici's connection pool (docs/performance.md says what each costs). The
 * contract has its own module so the engines implement it without importing forward.ts, which
 * chooses between them.
 */
export interface Forwarder {
  /** Streams the request to the upstream (headers already passed) and the reply back. */
  forward(req: IncomingMessage, res: ServerResponse, state: ForwardState, body?: NodeJS.ReadableStream): void;
  /** Closes the upstream connections; called once the generation that owns it is idle. */
  close(): void;
}

export interface ForwarderHooks {
  onUpstreamFailure?(req: IncomingMessage, failure: UpstreamFailure, error: Error): void;
}
