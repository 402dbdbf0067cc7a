import type { IncomingMessage } from 'node:http';
import type { AuthDecision } from '#auth';
import type { CompiledRoute } from '../routing/compile.ts';
import type { AuthRuntime } from '../verification/runtime.ts';

/**
 * Key/secret requests (a `key` query parameter and no Bearer credential) on routes that allow
 * them are not the gateway's to judge: the upstream checks key and secret itself. Returns the
 * key (what the call's rate limits count by), else undefined.
 */
export function keySecretKey(req: IncomingMessage, route: CompiledRoute): string | undefined {
  if (!route.allowKeySecret) return undefined;
  const authorization = req.headers.authorization;
  if (authorization !== undefined && /^\s*bearer(\s|$)/i.test(authorization)) return undefined;
  const url = req.url ?? '';
  const q = url.indexOf('?');
  return q === -1 ? undefined : (new URLSearchParams(url.slice(q + 1)).get('key') ?? undefined);
}

/** Runs the plugin and times it (cache hits included) for the verification histogram. */
export function authorizeTimed(
  auth: AuthRuntime,
  req: IncomingMessage,
  route: CompiledRoute,
  observe: (seconds: number) => void,
): AuthDecision | Promise<AuthDecision> {
  const started = performance.now();
  const decision = auth.verifier.authorize(req.headers.authorization, route.requirement, req);
  if (!(decision instanceof Promise)) {
    observe((performance.now() - started) / 1000);
    return decision;
  }
  return decision.finally(() => observe((performance.now() - started) / 1000));
}
