import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AuthDecision, authFailureResponse } from '#auth';
import { type Logger, sendJson } from '#common';
import type { GatewayMetrics } from '../ops/metrics.ts';
import { forwardHeaders, requestIdFrom } from '../proxy/passes/index.ts';
import type { ForwardState } from '../proxy/state.ts';
import type { GatewayTracing } from '../tracing/types.ts';
import type { CompiledRoute } from '../routing/compile.ts';
import { type AccessLine, finishRequest } from './access-log.ts';
import type { RateLimiting } from '../ratelimit/runtime.ts';
import type { Verdict } from '../ratelimit/limiter.ts';
import { authorizeTimed, keySecretKey } from './authorize.ts';
import { admit } from './admit.ts';
import { countingStream, needsCounting } from './body-limit.ts';
import { enter, type Generation, leave } from './generation.ts';
import { answerInternalError } from './last-resort.ts';
import { attachRecord, newRecord, type RequestRecord, recordOf } from './record.ts';
import { answerLimited, setLimitHeaders } from './rate-limit.ts';
import { sendApiError } from './respond.ts';

export interface HandlerDeps {
  current(): Generation;
  onIdle(gen: Generation): void;
  readonly log: Logger;
  /** Where the per-request line goes (access-log.ts). */
  readonly accessLine: AccessLine;
  readonly metrics: GatewayMetrics;
  /** Spans per request, when tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT). */
  readonly tracing?: GatewayTracing | undefined;
  /** Rate limits and quotas (applied to routes with a `rateLimitGroup` while `rateLimits` is configured). */
  readonly rateLimiting?: RateLimiting | undefined;
}

/**
 * The request pipeline: admit (limits, health, route) → auth → header passes → forward. The generation (config, router, forwarder, verifier) is read once, so a reload
 * never changes the rules half-way through a request.
 */
export function createHandler(deps: HandlerDeps) {
  const { log, metrics, tracing } = deps;
  const observe = (seconds: number) => metrics.verification.observe(seconds);
  // One shared listener, no closure per request: a response always ends with exactly one 'close'
  // (after 'finish' when the reply was handed to the socket, alone when it was cut short), so
  // `on` suffices; `once` would wrap the listener in a new closure every request.
  function done(this: ServerResponse): void {
    const record = recordOf(this) as RequestRecord;
    leave(record.gen, deps.onIdle);
    finishRequest(this, record, deps.accessLine, metrics);
    record.trace?.end(this, record.route, record.decision, record.errorCode);
  }
  return function handle(req: IncomingMessage, res: ServerResponse): void {
    const gen = deps.current();
    const record = newRecord(requestIdFrom(req.headers), req.method ?? 'GET', performance.now(), gen);
    enter(gen);
    attachRecord(res, record);
    res.on('close', done);
    let route: CompiledRoute | undefined;
    // The last resort (last-resort.ts): nothing thrown for one request may end the process. One
    // try around the synchronous body; V8 optimises it, and it costs nothing until something throws.
    try {
      route = admit(gen, req, res, record);
      if (route === undefined) return;
      // Routed requests only: health probes and refused paths make no trace.
      if (tracing !== undefined) record.trace = tracing.start(req);
      if (route.auth === 'none') {
        record.decision = 'public';
        forward(gen, req, res, record, route, undefined);
        return;
      }
      const key = keySecretKey(req, route);
      if (key !== undefined) {
        record.decision = 'key_secret';
        limitThenForward(gen, req, res, record, route, undefined, `k:${key}`, deps.rateLimiting?.projectOfKey(key));
        return;
      }
      record.trace?.verifying();
      const decision = authorizeTimed(gen.auth, req, route, observe);
      if (decision instanceof Promise) {
        // Asynchronous (batched signature check, unknown-kid refetch): the client may be gone by now,
        // or a drain that ran out of time answered 503 (drain.ts).
        const matched = route;
        decision.then(
          (d) => decideLater(gen, req, res, record, matched, d),
          (error: unknown) => answerInternalError(log, req, res, record, matched, error),
        );
      } else decide(gen, req, res, record, route, decision);
    } catch (error) {
      answerInternalError(log, req, res, record, route, error);
    }
  };

  /** The continuation of an asynchronous check, guarded like the synchronous path. */
  function decideLater(
    gen: Generation,
    req: IncomingMessage,
    res: ServerResponse,
    record: RequestRecord,
    route: CompiledRoute,
    decision: AuthDecision,
  ): void {
    if (res.destroyed || res.writableEnded) return;
    try {
      decide(gen, req, res, record, route, decision);
    } catch (error) {
      answerInternalError(log, req, res, record, route, error);
    }
  }

  function decide(
    gen: Generation,
    req: IncomingMessage,
    res: ServerResponse,
    record: RequestRecord,
    route: CompiledRoute,
    decision: AuthDecision,
  ): void {
    if (!decision.ok) {
      const reply = authFailureResponse(decision, route.errorFields);
      record.decision = 'denied';
      record.errorCode = reply.body.error_code;
      record.trace?.verified(decision, record.errorCode);
      if (decision.kind !== 'credentials_missing')
        log.debug({ reqId: record.requestId, kind: decision.kind, detail: decision.detail }, 'token refused');
      sendJson(res, reply.status, reply.body, { ...reply.headers, 'x-request-id': record.requestId });
      return;
    }
    record.decision = 'allowed';
    record.token = decision.token;
    // RFC 9449 §9: the nonce for the client's next proof rides on the upstream's answer.
    if (decision.dpopNonce !== undefined) res.setHeader('dpop-nonce', decision.dpopNonce);
    record.trace?.verified(decision, '');
    limitThenForward(gen, req, res, record, route, decision, decision.token.clientId, decision.token.projectId);
  }

  /** The route group's rate limits and the project's quota (ratelimit/limiter.ts), then forward. */
  function limitThenForward(
    gen: Generation,
    req: IncomingMessage,
    res: ServerResponse,
    record: RequestRecord,
    route: CompiledRoute,
    decision: AuthDecision | undefined,
    client: string,
    project: string | undefined,
  ): void {
    const limiting = deps.rateLimiting;
    const group = route.rateLimitGroup;
    if (limiting === undefined || group === undefined || gen.plans === undefined) {
      forward(gen, req, res, record, route, decision);
      return;
    }
    const verdict = limiting.limiter.check(gen.plans, group, client, project);
    if (!(verdict instanceof Promise)) {
      applyVerdict(gen, req, res, record, route, decision, verdict);
      return;
    }
    verdict.then(
      (v) => {
        if (res.destroyed || res.writableEnded) return;
        try {
          applyVerdict(gen, req, res, record, route, decision, v);
        } catch (error) {
          answerInternalError(log, req, res, record, route, error);
        }
      },
      (error: unknown) => answerInternalError(log, req, res, record, route, error),
    );
  }

  function applyVerdict(
    gen: Generation,
    req: IncomingMessage,
    res: ServerResponse,
    record: RequestRecord,
    route: CompiledRoute,
    decision: AuthDecision | undefined,
    verdict: Verdict,
  ): void {
    if (!verdict.ok) {
      answerLimited(res, record, route, verdict);
      return;
    }
    setLimitHeaders(res, verdict);
    forward(gen, req, res, record, route, decision);
  }

  function forward(
    gen: Generation,
    req: IncomingMessage,
    res: ServerResponse,
    record: RequestRecord,
    route: CompiledRoute,
    decision: AuthDecision | undefined,
  ): void {
    const state: ForwardState = {
      note: record,
      route,
      timedOut: undefined,
      upstreamRequest: undefined,
      answered: false,
    };
    // http-proxy-3 forwards `req.headers`: hand it the passed copy.
    req.headers = forwardHeaders(req.headers, {
      requestId: record.requestId,
      remoteAddress: req.socket.remoteAddress ?? '',
      encrypted: 'encrypted' in req.socket,
      token: decision?.ok ? decision.token : undefined,
    });
    record.trace?.forwarding(req.headers);
    const limit = gen.config.limits.maxBodyBytes;
    const body = needsCounting(req)
      ? countingStream(req, limit, () => {
          state.answered = true;
          state.upstreamRequest?.destroy();
          if (!res.headersSent)
            sendApiError(res, record, 'payload_too_large', {
              extra: route.errorFields,
              headers: { connection: 'close' },
            });
        })
      : undefined;
    gen.forwarder.forward(req, res, state, body);
  }
}
