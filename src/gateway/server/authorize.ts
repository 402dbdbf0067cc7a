import type { IncomingMessage } from 'node:http';
import { type AuthDecision, type AuthFailure, authFailureResponse, type VerifiedToken } from '#auth';
import { sendJson } from '#common';
import type { CompiledRoute } from '../routing/compile.ts';
import type { AuthRuntime } from '../verification/runtime.ts';
import type { RequestContext } from './context.ts';
import type { Flow } from './steps.ts';

/**
 * The credential step: an `auth: none` route is public; a key/secret call is counted by its key
 * and left to the upstream; otherwise the token is checked, synchronously on a cache hit, as a
 * promise when it needs the signature batch or a key-set refetch.
 */
export function authenticate(ctx: RequestContext): Flow {
  // Set by admitted(), the step before.
  const route = ctx.matched as CompiledRoute;
  if (route.auth === 'none') {
    ctx.decision = 'public';
    return true;
  }
  const key = keySecretKey(ctx.req, route);
  if (key !== undefined) {
    ctx.decision = 'key_secret';
    ctx.client = `k:${key}`;
    ctx.project = ctx.deps.rateLimiting?.projectOfKey(key);
    return true;
  }
  ctx.trace?.verifying();
  const decision = authorizeTimed(ctx.gen.auth, ctx.req, route, ctx.deps.metrics.verification, ctx.origin);
  if (!(decision instanceof Promise)) {
    ctx.auth = decision;
    return true;
  }
  return decision.then((settled) => {
    ctx.auth = settled;
  });
}

/**
 * The token check's answer: a refusal is answered here (401/403 in the route's shape, with the
 * Bearer or DPoP challenge); an accepted token is what the call's rate limits count by.
 */
export function decide(ctx: RequestContext): Flow {
  const decision = ctx.auth;
  if (decision === undefined) return true;
  if (!decision.ok) return refuse(ctx, decision);
  const route = ctx.matched as CompiledRoute;
  // A route without `claims:` pays one comparison here (compile.ts).
  if (route.claimCheck !== undefined) {
    const failed = route.claimCheck(decision.token.claims);
    if (failed !== undefined) return refuseClaims(ctx, route, decision.token, failed);
  }
  ctx.decision = 'allowed';
  ctx.token = decision.token;
  // RFC 9449 §9: the nonce for the client's next proof rides on the upstream's answer.
  if (decision.dpopNonce !== undefined) ctx.res.setHeader('dpop-nonce', decision.dpopNonce);
  ctx.trace?.verified(decision, '');
  const { token } = decision;
  // Another issuer's client and project are not tokengate's: counted apart under its name.
  ctx.client = token.issuer === undefined ? token.clientId : `${token.issuer}:${token.clientId}`;
  ctx.project = token.issuer === undefined ? token.projectId : `${token.issuer}:${token.projectId}`;
  return true;
}

/** A refusal in the route's shape, with the Bearer or DPoP challenge. */
function refuse(ctx: RequestContext, failure: AuthFailure): false {
  const reply = authFailureResponse(failure, (ctx.matched as CompiledRoute).errorFields);
  ctx.decision = 'denied';
  ctx.errorCode = reply.body.error_code;
  ctx.trace?.verified(failure, ctx.errorCode);
  if (failure.kind !== 'credentials_missing')
    ctx.deps.log.debug({ reqId: ctx.requestId, kind: failure.kind, detail: failure.detail }, 'token refused');
  sendJson(ctx.res, reply.status, reply.body, { ...reply.headers, 'x-request-id': ctx.requestId });
  return false;
}

/**
 * A valid token whose claims fail the route's rules: 403 `1029`. The log names the claim, never
 * its value; a DPoP-bound token (verified as DPoP) is answered with the DPoP challenge.
 */
function refuseClaims(ctx: RequestContext, route: CompiledRoute, token: VerifiedToken, claim: string): false {
  const failure: AuthFailure = {
    ok: false,
    kind: 'insufficient_claims',
    detail: `claim ${claim.slice(0, 64)} fails the rules of ${route.id}`,
    ...(token.jkt === undefined ? {} : { dpop: true }),
  };
  return refuse(ctx, failure);
}

/**
 * Key/secret requests (a `key` query parameter and no Bearer credential) on routes that allow
 * them are not the gateway's to judge: the upstream checks key and secret itself. Returns the
 * key (what the call's rate limits count by), else undefined.
 */
function keySecretKey(req: IncomingMessage, route: CompiledRoute): string | undefined {
  if (!route.allowKeySecret) return undefined;
  const authorization = req.headers.authorization;
  if (authorization !== undefined && /^\s*bearer(\s|$)/i.test(authorization)) return undefined;
  const url = req.url ?? '';
  const q = url.indexOf('?');
  return q === -1 ? undefined : (new URLSearchParams(url.slice(q + 1)).get('key') ?? undefined);
}

/** Runs the plugin and times it (cache hits included) for the verification histogram. */
function authorizeTimed(
  auth: AuthRuntime,
  req: IncomingMessage,
  route: CompiledRoute,
  histogram: { observe(seconds: number): void },
  origin: string | undefined,
): AuthDecision | Promise<AuthDecision> {
  const started = performance.now();
  // Forward-auth: DPoP's htu is the absolute URL the proxy reports (verification/runtime.ts).
  const request =
    origin === undefined ? req : { method: req.method, url: origin + (req.url ?? '/'), headers: req.headers };
  const decision =
    route.issuers === undefined
      ? auth.verifier.authorize(req.headers.authorization, route.requirement, request)
      : auth.forIssuers(route.issuers)(req.headers.authorization, route.requirement, request);
  if (!(decision instanceof Promise)) {
    histogram.observe((performance.now() - started) / 1000);
    return decision;
  }
  return decision.finally(() => histogram.observe((performance.now() - started) / 1000));
}
