import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthDecision } from '#auth';
import type { Logger } from '#common';
import type { Verdict } from '../ratelimit/limiter.ts';
import type { RateLimiting } from '../ratelimit/runtime.ts';
import type { CompiledRoute } from '../routing/compile.ts';
import type { GatewayTracing } from '../tracing/types.ts';
import type { Generation } from './generation.ts';
import type { RequestRecord } from './record.ts';

/** What the steps use of the handler's dependencies (the same object for every request). */
export interface StepDeps {
  readonly log: Logger;
  readonly metrics: { readonly verification: { observe(seconds: number): void } };
  /** Spans per request, when tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT). */
  readonly tracing?: GatewayTracing | undefined;
  /** Rate limits and quotas (applied to routes with a `rateLimitGroup` while `rateLimits` is configured). */
  readonly rateLimiting?: RateLimiting | undefined;
}

/**
 * One request as the handler's steps see it. It is the request's record (what its access line
 * says) with what the steps pass on to one another: one object per request, so no step takes a
 * list of positional arguments and nothing else is allocated to carry them.
 */
export interface RequestContext extends RequestRecord {
  readonly deps: StepDeps;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The route admit() found; undefined until then (and for requests it answered). */
  matched: CompiledRoute | undefined;
  /** The token check's answer; undefined on `auth: none` routes and key/secret calls. */
  auth: AuthDecision | undefined;
  /** Whom the call's rate limits count: the client (or `k:<key>`) and its project; undefined on `auth: none`. */
  client: string | undefined;
  project: string | undefined;
  /** The rate limiter's answer; undefined when the call was not limited. */
  verdict: Verdict | undefined;
  /** The step the runner resumes at when an asynchronous step settles. */
  next: number;
  /** The peer as the socket sees it, set when forwarding: the context is the header passes' ForwardContext too. */
  remoteAddress: string;
  encrypted: boolean;
  /** Forward-auth: `scheme://host` of the URL the proxy reports (DPoP's htu), else undefined. */
  origin: string | undefined;
}

export function newContext(
  deps: StepDeps,
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  startedAt: number,
  gen: Generation,
): RequestContext {
  // Every field is set here, in one order, so every context shares one hidden class.
  return {
    requestId,
    method: req.method ?? 'GET',
    startedAt,
    gen,
    route: '(unmatched)',
    decision: 'rejected',
    errorCode: '',
    errorShape: 'api',
    token: undefined,
    trace: undefined,
    deps,
    req,
    res,
    matched: undefined,
    auth: undefined,
    client: undefined,
    project: undefined,
    verdict: undefined,
    next: 0,
    remoteAddress: '',
    encrypted: false,
    origin: undefined,
  };
}
