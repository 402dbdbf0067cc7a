import type { RouteRequirement } from '#auth';
import type { RouteConfig } from '../config/file/routes.ts';
import type { ErrorShape } from './error-shape.ts';

/**
 * A route as the request path uses it, compiled once at load: the auth requirement is built
 * here (not per request) and the error extras are frozen.
 */
export interface CompiledRoute {
  /** The configured path pattern; the metrics and access-log label. */
  readonly id: string;
  readonly auth: 'bearer' | 'none';
  readonly requirement: RouteRequirement;
  readonly allowKeySecret: boolean;
  readonly errorFields: Readonly<Record<string, unknown>>;
  /** The body of the gateway's own errors on this route (error-shape.ts). */
  readonly errorShape: ErrorShape;
  /** Its group in `rateLimits`; undefined: neither limited nor counted. */
  readonly rateLimitGroup: string | undefined;
}

export function compileRoute(route: RouteConfig): CompiledRoute {
  return Object.freeze({
    id: route.path,
    auth: route.auth,
    requirement: Object.freeze({ scopes: Object.freeze([...route.scopes]), match: route.match }),
    allowKeySecret: route.allowKeySecret,
    errorFields: route.errorFields,
    errorShape: route.errorShape,
    rateLimitGroup: route.rateLimitGroup,
  });
}
