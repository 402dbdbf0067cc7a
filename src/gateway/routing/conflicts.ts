import type Router from 'find-my-way';
import { createTree } from './tree.ts';

export interface RouteConflict {
  /** Index of the route find-my-way would refuse, in the route map. */
  readonly index: number;
  readonly message: string;
}

type RouteShape = { readonly path: string; readonly methods: readonly string[] };

/**
 * What building the router would throw on, found at validation (start, reload and check-config
 * share it) so a route map is refused rather than crashing the router build. Routes are added
 * one by one to a tree set up like the real one: a method declared again on the same shape
 * (parameter names do not tell `/x/:id` from `/x/:itemId`), or a pattern find-my-way refuses.
 */
export function routeConflicts(routes: readonly RouteShape[]): RouteConflict[] {
  const tree = createTree();
  const conflicts: RouteConflict[] = [];
  routes.forEach((route, index) => {
    for (const method of route.methods as Router.HTTPMethod[]) {
      try {
        const earlier = tree.findRoute(method, route.path);
        if (earlier === null) tree.on(method, route.path, () => undefined, index);
        else conflicts.push({ index, message: duplicate(method, route.path, earlier.store as number, routes) });
      } catch (error) {
        // A pattern the tree cannot parse fails the same way for every method: say it once.
        conflicts.push({
          index,
          message: `cannot route ${route.path}: ${error instanceof Error ? error.message : String(error)}`,
        });
        return;
      }
    }
  });
  return conflicts;
}

function duplicate(method: string, path: string, earlier: number, routes: readonly RouteShape[]): string {
  const other = routes[earlier]?.path;
  return other === path
    ? `duplicate route ${method} ${path}`
    : `duplicate route ${method} ${path}: the same route as routes[${earlier}] ${other} (parameter names do not tell routes apart)`;
}
