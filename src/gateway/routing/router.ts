import type Router from 'find-my-way';
import type { RouteConfig } from '../config/file/routes.ts';
import { type CompiledRoute, compileRoute } from './compile.ts';
import { isSafePath, pathOf } from './path-guard.ts';
import { createTree } from './tree.ts';

export type RouteMatch =
  | { readonly kind: 'route'; readonly route: CompiledRoute }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'bad_path' }
  | {
      readonly kind: 'method_not_allowed';
      /** The path's route (its id labels the metrics and the access line, as a match's does). */
      readonly route: CompiledRoute;
      readonly allow: readonly string[];
      /** The path's routes' extra error fields, so a 405 answers in their body shape. */
      readonly errorFields: Readonly<Record<string, unknown>>;
    };

export interface GatewayRouter {
  match(method: string, url: string): RouteMatch;
}

const NOT_FOUND: RouteMatch = { kind: 'not_found' };
const BAD_PATH: RouteMatch = { kind: 'bad_path' };
type Method = Router.HTTPMethod;
const MEMO_METHODS = 16;
const MEMO_PATHS = 1_024;
const MEMO_PATH_LENGTH = 256;

/**
 * Route map → find-my-way (exact `/x`, prefix `/x/*`, parameters `/x/:id`). Built once per
 * configuration; a reload builds a new one and swaps it. Only the configured methods match;
 * another method on a known path is a 405 with `Allow`.
 */
export function createRouter(routes: readonly RouteConfig[]): GatewayRouter {
  const router = createTree();
  const methods = new Set<string>();
  const claimHeaderNames = new Set(
    routes.flatMap((config) => Object.keys(config.claimHeaders ?? {}).map((name) => name.toLowerCase())),
  );
  for (const config of routes) {
    const route = compileRoute(config, claimHeaderNames);
    for (const method of config.methods) methods.add(method);
    router.on(config.methods as Method[], config.path, () => undefined, route);
  }
  router.compile();

  // The API's paths work with and without a trailing slash (its curl examples use `/x/`). The path
  // as sent is tried first, so `/x/` still reaches a prefix route `/x/*` (find-my-way's
  // ignoreTrailingSlash would lose that) and the tree stays the one validation builds.
  function find(method: Method, path: string) {
    const found = router.find(method, path);
    if (found !== null || path.length < 2 || !path.endsWith('/')) return found;
    return router.find(method, path.slice(0, -1));
  }

  function allowed(path: string): string[] {
    return [...methods].filter((m) => find(m as Method, path) !== null);
  }

  function resolve(method: string, path: string): RouteMatch {
    if (!isSafePath(path)) return BAD_PATH;
    const found = methods.has(method) ? find(method as Method, path) : null;
    if (found) return { kind: 'route', route: found.store as CompiledRoute };
    const allow = allowed(path);
    if (allow.length === 0) return NOT_FOUND;
    const known = find(allow[0] as Method, path)?.store as CompiledRoute;
    return { kind: 'method_not_allowed', route: known, allow, errorFields: known.errorFields };
  }

  // Most traffic repeats a few paths: their matches are remembered per method (the path guard's
  // regular expressions and the tree walk are skipped). Cleared when full, so random paths cannot
  // grow it; a configuration's router lives as long as the configuration.
  const memo = new Map<string, Map<string, RouteMatch>>();
  return {
    match(method, url) {
      const path = pathOf(url);
      let byPath = memo.get(method);
      if (byPath === undefined) {
        if (memo.size >= MEMO_METHODS) memo.clear();
        byPath = new Map();
        memo.set(method, byPath);
      }
      const known = byPath.get(path);
      if (known !== undefined) return known;
      const match = resolve(method, path);
      if (path.length <= MEMO_PATH_LENGTH) {
        if (byPath.size >= MEMO_PATHS) byPath.clear();
        byPath.set(path, match);
      }
      return match;
    },
  };
}
