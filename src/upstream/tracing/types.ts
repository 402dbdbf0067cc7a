import type { IncomingMessage, ServerResponse } from 'node:http';

/** The upstream's spans; present only when tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT). */
export interface UpstreamTracing {
  /**
   * Runs `route` (the routing of one request) inside its SERVER span, continuing the gateway's
   * `traceparent`; a token request also gets its `tokengate.token` span. Both end with the response.
   */
  request(req: IncomingMessage, res: ServerResponse, routeName: string, route: () => void): void;
  /** Runs a validation handler inside its own span, ended when the response is done. */
  handler(name: string, res: ServerResponse, work: () => Promise<void>): Promise<void>;
  /** Stops listening to the store, exports the spans left, then stops. */
  close(): Promise<void>;
}
