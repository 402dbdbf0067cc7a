import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { context, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  type OAuthErrorMessage,
  oauthErrorChannel,
  type StoreQueryContext,
  storeQueryChannel,
  type TracingSdk,
} from '#common';
import type { UpstreamTracing } from './types.ts';

const getter = {
  keys: (carrier: IncomingHttpHeaders) => Object.keys(carrier),
  get(carrier: IncomingHttpHeaders, key: string): string | undefined {
    const value = carrier[key];
    return Array.isArray(value) ? value[0] : value;
  },
};

const TOKEN_PATH = '/oauth/token';

/**
 * The upstream's spans: a SERVER span per request (continuing the gateway's forward span), a
 * `tokengate.token` span for token issuance with its outcome, a span per validation handler, and
 * a CLIENT span per store statement under whichever of them is active (AsyncLocalStorage).
 * Statements outside any request (the key reload timer) make no span.
 */
export function createUpstreamTracing(sdk: TracingSdk): UpstreamTracing {
  const { tracer, propagator } = sdk;
  const oauthErrors = new WeakMap<ServerResponse, string>();
  const onOAuthError = (message: unknown) => {
    const { res, code } = message as OAuthErrorMessage;
    oauthErrors.set(res, code);
  };
  const statements = new WeakMap<StoreQueryContext, Span>();
  const store = {
    start(query: StoreQueryContext) {
      const parent = context.active();
      if (trace.getSpan(parent) === undefined) return;
      const operation = /^\s*([A-Za-z]+)/.exec(query.sql)?.[1]?.toUpperCase() ?? 'OTHER';
      const span = tracer.startSpan(
        `tokengate.store ${operation}`,
        {
          kind: SpanKind.CLIENT,
          attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.text': query.sql },
        },
        parent,
      );
      statements.set(query, span);
    },
    end: () => undefined,
    asyncStart: () => undefined,
    asyncEnd(query: StoreQueryContext) {
      statements.get(query)?.end();
    },
    error(query: StoreQueryContext & { error?: unknown }) {
      const span = statements.get(query);
      if (span === undefined) return;
      // asyncEnd follows and ends it.
      span.setStatus({ code: SpanStatusCode.ERROR, message: (query.error as Error | undefined)?.name ?? 'error' });
    },
  };
  oauthErrorChannel.subscribe(onOAuthError);
  storeQueryChannel.subscribe(store);

  const endWith = (span: Span, res: ServerResponse, attributes: () => Record<string, string | number>) => {
    res.once('close', () => {
      span.setAttribute('http.response.status_code', res.statusCode);
      span.setAttributes(attributes());
      if (res.statusCode >= 500 || !res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
  };

  return {
    request(req, res, routeName, route) {
      const parent = propagator.extract(ROOT_CONTEXT, req.headers, getter);
      const method = req.method ?? 'GET';
      const server = tracer.startSpan(
        `${method} ${routeName}`,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'http.route': routeName } },
        parent,
      );
      let active = trace.setSpan(parent, server);
      if (routeName === TOKEN_PATH) {
        const token = tracer.startSpan('tokengate.token', { kind: SpanKind.INTERNAL }, active);
        endWith(token, res, () => ({
          'tokengate.outcome':
            res.statusCode === 200
              ? 'issued'
              : res.statusCode === 429
                ? 'rate_limited'
                : (oauthErrors.get(res) ?? 'server_error'),
        }));
        active = trace.setSpan(active, token);
      }
      endWith(server, res, () => ({}));
      context.with(active, route);
    },
    handler(name, res, work) {
      const span = tracer.startSpan(`tokengate.validation ${name}`, {
        kind: SpanKind.INTERNAL,
        attributes: { 'tokengate.endpoint': name },
      });
      endWith(span, res, () => ({}));
      return context.with(trace.setSpan(context.active(), span), work);
    },
    async close() {
      oauthErrorChannel.unsubscribe(onOAuthError);
      storeQueryChannel.unsubscribe(store);
      await sdk.shutdown();
    },
  };
}
