import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { type Context, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { AuthDecision } from '#auth';
import type { TracingSdk } from '#common';
import type { GatewayTracing, RequestTrace } from './types.ts';

const getter = {
  keys: (carrier: IncomingHttpHeaders) => Object.keys(carrier),
  get(carrier: IncomingHttpHeaders, key: string): string | undefined {
    const value = carrier[key];
    return Array.isArray(value) ? value[0] : value;
  },
};
const setter = {
  set(carrier: IncomingHttpHeaders, key: string, value: string): void {
    carrier[key] = value;
  },
};

/**
 * The gateway's spans, with contexts passed explicitly (no async context is needed): a SERVER
 * span per request continuing the caller's `traceparent`, a `tokengate.verify` span with the
 * decision and error code, and a CLIENT `tokengate.forward` span whose context the upstream
 * continues. Loaded only when tracing is on (start.ts).
 */
export function createGatewayTracing(sdk: TracingSdk, upstreamUrl: string): GatewayTracing {
  const { tracer, propagator } = sdk;
  const upstream = new URL(upstreamUrl);
  const serverAddress = upstream.hostname;
  const serverPort = Number(upstream.port || (upstream.protocol === 'https:' ? 443 : 80));

  class Trace implements RequestTrace {
    readonly #server: Span;
    readonly #context: Context;
    #verify: Span | undefined;
    #forward: Span | undefined;

    constructor(req: IncomingMessage) {
      const parent = propagator.extract(ROOT_CONTEXT, req.headers, getter);
      this.#server = tracer.startSpan(
        `${req.method ?? 'GET'}`,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method ?? 'GET' } },
        parent,
      );
      this.#context = trace.setSpan(parent, this.#server);
    }

    verifying(): void {
      this.#verify = tracer.startSpan('tokengate.verify', { kind: SpanKind.INTERNAL }, this.#context);
    }

    verified(decision: AuthDecision, errorCode: string): void {
      const span = this.#verify;
      if (span === undefined) return;
      span.setAttribute('tokengate.decision', decision.ok ? 'allowed' : 'denied');
      if (decision.ok) span.setAttribute('tokengate.client_id', decision.token.clientId);
      else {
        span.setAttribute('tokengate.error_code', errorCode);
        span.setAttribute('tokengate.failure', decision.kind);
      }
      span.end();
      this.#verify = undefined;
    }

    forwarding(headers: IncomingHttpHeaders): void {
      this.#forward = tracer.startSpan(
        'tokengate.forward',
        { kind: SpanKind.CLIENT, attributes: { 'server.address': serverAddress, 'server.port': serverPort } },
        this.#context,
      );
      // The upstream continues this span, not the client's: the client's trace is its parent.
      delete headers['traceparent'];
      delete headers['tracestate'];
      propagator.inject(trace.setSpan(this.#context, this.#forward), headers, setter);
    }

    end(res: ServerResponse, route: string, decision: string, errorCode: string): void {
      const status = res.statusCode;
      const aborted = !res.writableFinished;
      // A verification still pending when the client left (the decision came too late).
      this.#verify?.end();
      for (const span of [this.#forward, this.#server]) {
        if (span === undefined) continue;
        span.setAttribute('http.response.status_code', status);
        if (status >= 500 || aborted) span.setStatus({ code: SpanStatusCode.ERROR });
      }
      this.#forward?.end();
      const server = this.#server;
      server.updateName(`${res.req.method ?? 'GET'} ${route}`);
      server.setAttribute('http.route', route);
      server.setAttribute('tokengate.decision', decision);
      if (errorCode !== '') server.setAttribute('tokengate.error_code', errorCode);
      server.end();
    }
  }

  return {
    start: (req) => new Trace(req),
    shutdown: () => sdk.shutdown(),
  };
}
