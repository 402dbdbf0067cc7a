import Router from 'find-my-way';
import type { RouteConfig } from '../config/schema.ts';
import { type CompiledRoute, compileRoute } from './compile.ts';
import { isSafePath, pathOf } from './path-guard.ts';

export type RouteMatch =
  | { readonly kind: 'route'; readonly route: CompiledRoute }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'bad_path' }
  | { readonly kind: 'method_not_allowed'; readonly allow: readonly string[] };

export interface GatewayRouter {
  match(method: string, url: string): RouteMatch;
}

const NOT_FOUND: RouteMatch = { kind: 'not_found' };
const BAD_PATH: RouteMatch = { kind: 'bad_path' };
type Method = Router.HTTPMethod;

/**
 * Route map → find-my-way (exact `/x`, prefix `/x/*`, parameters `/x/:id`). Built once per
 * configuration; a reload builds a new one and swaps it. Only the configured methods match;
 * another method on a known path is a 405 with `Allow`.
 */
export function createRouter(routes: readonly RouteConfig[]): GatewayRouter {
  const router = Router({ caseSensitive: true, ignoreTrailingSlash: false, maxParamLength: 200 });
  const methods = new Set<string>();
  for (const config of routes) {
    const route = compileRoute(config);
    for (const method of config.methods) methods.add(method);
    router.on(config.methods as Method[], config.path, () => undefined, route);
  }
  router.compile();

  function allowed(path: string): string[] {
    return [...methods].filter((m) => router.find(m as Method, path) !== null);
  }

  return {
    match(method, url) {
      const path = pathOf(url);
      if (!isSafePath(path)) return BAD_PATH;
      const found = methods.has(method) ? router.find(method as Method, path) : null;
      if (found) return { kind: 'route', route: found.store as CompiledRoute };
      const allow = allowed(path);
      return allow.length > 0 ? { kind: 'method_not_allowed', allow } : NOT_FOUND;
    },
  };
}
