import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AuthFailure, authFailureResponse } from '#auth';
import { sendJson } from '#common';
import { HEALTH_PATHS, sendHealth } from '../ops/health.ts';
import type { CompiledRoute } from '../routing/compile.ts';
import { pathOf } from '../routing/path-guard.ts';
import { declaredTooLarge } from './body-limit.ts';
import { arrivedDuringDrain } from './drain.ts';
import { fieldLines } from './field-lines.ts';
import { framingProblem } from './framing.ts';
import type { RequestContext } from './context.ts';
import type { Generation } from './generation.ts';
import type { RequestRecord } from './record.ts';
import { hostProblem, toOriginForm } from './request-target.ts';
import { sendApiError } from './respond.ts';
import type { Flow } from './steps.ts';

const SLASH = 0x2f;

/** The first step: admit() finds the route, or has answered; a routed request's trace starts. */
export function admitted(ctx: RequestContext): Flow {
  const route = admit(ctx.gen, ctx.req, ctx.res, ctx);
  if (route === undefined) return false;
  ctx.matched = route;
  // Routed requests only: health probes and refused paths make no trace.
  const tracing = ctx.deps.tracing;
  if (tracing !== undefined) ctx.trace = tracing.start(ctx.req);
  return true;
}

/**
 * Everything decided before authentication: URL length (414), the request target's form and
 * Host (400, request-target.ts), a Transfer-Encoding Node left unchecked (400, framing.ts),
 * health endpoints (GET and HEAD), the route (400 for unsafe paths, 404, 405 with Allow), several
 * Authorization headers (400) and a declared body size (413). Returns the route, or undefined when
 * the request has been answered here.
 */
export function admit(
  gen: Generation,
  req: IncomingMessage,
  res: ServerResponse,
  record: RequestRecord,
): CompiledRoute | undefined {
  let url = req.url ?? '/';
  if (url.length > gen.config.limits.maxUrlLength) {
    shapeLikeItsRoute(gen, record, url);
    sendApiError(res, record, 'payload_too_large', { status: 414 });
    return undefined;
  }
  if (url.charCodeAt(0) !== SLASH) {
    const origin = toOriginForm(req, url);
    if (origin === undefined) return refuse(res, record, 'Invalid request target');
    url = origin;
  }
  const hostIssue = hostProblem(req) ?? framingProblem(req);
  if (hostIssue !== undefined) {
    shapeLikeItsRoute(gen, record, url);
    return refuse(res, record, hostIssue);
  }
  const path = pathOf(url);
  if (HEALTH_PATHS.has(path)) {
    record.route = path;
    // RFC 9110 §9.1: GET and HEAD (some load balancers probe with HEAD); any other method is a 405.
    if (req.method === 'GET' || req.method === 'HEAD') {
      record.decision = 'health';
      sendHealth(res, path, gen.auth.readiness, arrivedDuringDrain(req), gen.rateLimitStatus);
    } else sendApiError(res, record, 'method_not_allowed', { headers: { allow: 'GET, HEAD' } });
    return undefined;
  }
  // The path, not the URL: the router would cut the query off again.
  const match = gen.router.match(record.method, path);
  if (match.kind === 'bad_path') sendApiError(res, record, 'validation_failed', { message: 'Invalid request path' });
  else if (match.kind === 'not_found') sendApiError(res, record, 'route_not_found');
  else if (match.kind === 'method_not_allowed') {
    record.route = match.route.id;
    record.errorShape = match.route.errorShape;
    sendApiError(res, record, 'method_not_allowed', {
      extra: match.errorFields,
      headers: { allow: match.allow.join(', ') },
    });
  } else {
    record.route = match.route.id;
    record.errorShape = match.route.errorShape;
    if (fieldLines(req.rawHeaders, 'authorization', 'Authorization') > 1) {
      refuseSeveralCredentials(res, record, match.route);
      return undefined;
    }
    if (!declaredTooLarge(req, gen.config.limits.maxBodyBytes)) return match.route;
    sendApiError(res, record, 'payload_too_large', {
      extra: match.route.errorFields,
      headers: { connection: 'close' },
    });
  }
  return undefined;
}

/**
 * A request refused before routing (URL too long, Host) is answered in the shape of the route its
 * path names, if any, so a token endpoint client reads an OAuth error there too.
 */
function shapeLikeItsRoute(gen: Generation, record: RequestRecord, url: string): void {
  const match = gen.router.match(record.method, pathOf(url));
  if (match.kind === 'route' || match.kind === 'method_not_allowed') record.errorShape = match.route.errorShape;
}

function refuse(res: ServerResponse, record: RequestRecord, message: string): undefined {
  sendApiError(res, record, 'validation_failed', { message, headers: { connection: 'close' } });
  return undefined;
}

const SEVERAL_CREDENTIALS: AuthFailure = Object.freeze({
  ok: false,
  kind: 'invalid_request',
  detail: 'more than one Authorization header',
});

/**
 * RFC 6750 §3.1 `invalid_request`: Node keeps the first Authorization header and drops the rest, so
 * which credential would count is not the client's to see. Refused on every route, whatever its
 * auth: the upstream would only ever see the first. An OAuth route answers in its own shape, with
 * no Bearer challenge (its clients authenticate with Basic or form fields).
 */
function refuseSeveralCredentials(res: ServerResponse, record: RequestRecord, route: CompiledRoute): void {
  if (route.errorShape === 'oauth') {
    sendApiError(res, record, 'invalid_request');
    return;
  }
  const reply = authFailureResponse(SEVERAL_CREDENTIALS, route.errorFields);
  record.errorCode = reply.body.error_code;
  sendJson(res, reply.status, reply.body, { ...reply.headers, 'x-request-id': record.requestId });
}
