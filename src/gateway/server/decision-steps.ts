import { type CompiledForwardAuth, describedRequest, relayForNginx } from '../forward-auth/index.ts';
import { HEALTH_PATHS } from '../ops/health.ts';
import { decisionClaimHeaders } from '../proxy/passes/index.ts';
import { identityValue, IDENTITY_HEADER } from '../proxy/passes/identity.ts';
import { pathOf } from '../routing/path-guard.ts';
import type { RequestContext } from './context.ts';
import { sendApiError } from './respond.ts';
import type { Flow } from './steps.ts';

/**
 * Forward-auth's first step: the request a trusted proxy describes takes the place of the one it
 * sent, so every later step (route, token, scopes, DPoP, rate limits, access log) judges the
 * client's request as if it had come here itself. The gateway's own health paths are answered as
 * always; anything else from an address not in `trustedProxies` is refused (403 `1060`) before
 * a header it sent is read.
 */
export function described(ctx: RequestContext): Flow {
  const forwardAuth = ctx.gen.forwardAuth as CompiledForwardAuth;
  const { req, res } = ctx;
  if (HEALTH_PATHS.has(pathOf(req.url ?? '/'))) return true;
  if (forwardAuth.proxy === 'nginx') relayForNginx(res);
  if (!forwardAuth.trusted(req.socket.remoteAddress)) {
    sendApiError(res, ctx, 'untrusted_proxy');
    return false;
  }
  const original = describedRequest(req, forwardAuth.proxy, forwardAuth.pathPrefix);
  if (typeof original === 'string') {
    sendApiError(res, ctx, 'validation_failed', { message: original });
    return false;
  }
  // The gateway's own health paths are never forwarded in reverse-proxy mode: the upstream's are
  // no more reachable through a proxy that asks.
  if (HEALTH_PATHS.has(pathOf(original.target))) {
    sendApiError(res, ctx, 'route_not_found');
    return false;
  }
  req.method = original.method;
  req.url = original.target;
  ctx.method = original.method;
  // admit() checks the Host the client addressed as it checks its own (request-target.ts).
  if (original.host !== undefined) req.headers.host = original.host;
  // DPoP's htu is the URL the proxy reports; without its host and scheme, dpop.publicUrl's.
  if (original.host !== undefined && original.proto !== undefined) ctx.origin = `${original.proto}://${original.host}`;
  return true;
}

/**
 * Forward-auth's last step, in place of forward(): 200 with the identity header and the claim
 * headers (the headers earlier steps set, RateLimit fields and DPoP-Nonce, go with it) for the
 * proxy to copy onto the request it forwards. The identity header is there even without a token
 * (empty: a public route), so a proxy that copies it replaces a copy the client sent; Caddy 2.6's
 * `copy_headers` would otherwise also set the text of its own placeholder. Claim headers are
 * always all there too (claim-headers.ts).
 */
export function answerAllowed(ctx: RequestContext): Flow {
  const headers: Record<string, string | number> = {
    'x-request-id': ctx.requestId,
    'content-length': 0,
    [IDENTITY_HEADER]: ctx.token === undefined ? '' : identityValue(ctx.token),
  };
  const claims = ctx.matched?.claimHeaders;
  if (claims !== undefined) decisionClaimHeaders(headers, claims, ctx.token);
  ctx.res.writeHead(200, headers);
  ctx.res.end();
  return false;
}
