import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AuthDecision } from '#auth';

/**
 * One request's spans. Made only when tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT): with it off
 * the request record's `trace` stays undefined, and no span, context or attribute is made.
 */
export interface RequestTrace {
  /** Token verification starts. */
  verifying(): void;
  /** ...and ends: the decision and the error code (never the token). */
  verified(decision: AuthDecision, errorCode: string): void;
  /** Forwarding starts: its span's context goes upstream in `traceparent` (replacing the client's). */
  forwarding(headers: IncomingHttpHeaders): void;
  /** The response is done (or cut short). */
  end(res: ServerResponse, route: string, decision: string, errorCode: string): void;
}

export interface GatewayTracing {
  /** Continues the caller's W3C `traceparent`, or starts a trace. */
  start(req: IncomingMessage): RequestTrace;
  /** Exports the spans left, then stops. */
  shutdown(): Promise<void>;
}
