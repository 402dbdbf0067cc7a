import type { IncomingMessage } from 'node:http';
import type { AuthDecision } from '#auth';
import type { CompiledRoute } from '../routing/compile.ts';
import type { AuthRuntime } from '../verification/runtime.ts';

/**
 * Key/secret requests (a `key` query parameter and no Bearer credential) on routes that allow
 * them are not the gateway's to judge: the upstream checks key and secret itself.
 */
export function isKeySecretRequest(req: IncomingMessage, route: CompiledRoute): boolean {
  if (!route.allowKeySecret) return false;
  const authorization = req.headers.authorization;
  if (authorization !== undefined && /^\s*bearer(\s|$)/i.test(authorization)) return false;
  const url = req.url ?? '';
  const q = url.indexOf('?');
  return q !== -1 && new URLSearchParams(url.slice(q + 1)).has('key');
}

/** Runs the plugin and times it (cache hits included) for the verification histogram. */
export function authorizeTimed(
  auth: AuthRuntime,
  req: IncomingMessage,
  route: CompiledRoute,
  observe: (seconds: number) => void,
): AuthDecision | Promise<AuthDecision> {
  const started = performance.now();
  const decision = auth.verifier.authorize(req.headers.authorization, route.requirement);
  if (!(decision instanceof Promise)) {
    observe((performance.now() - started) / 1000);
    return decision;
  }
  return decision.finally(() => observe((performance.now() - started) / 1000));
}
