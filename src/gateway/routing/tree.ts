import Router from 'find-my-way';

/**
 * The one tree setup: validation (conflicts.ts) must refuse exactly what the router's tree
 * (router.ts) would. Its own module because the configuration schema calls the validation, and
 * the router takes its route type from the schema.
 */
export function createTree(): Router.Instance<Router.HTTPVersion.V1> {
  return Router({ caseSensitive: true, ignoreTrailingSlash: false, maxParamLength: 200 });
}
