/**
 * The forwarding engines (`upstream.engine`). The forwarding suites run once per engine with
 * `describe.each(ENGINES)`: every behaviour they check holds in both.
 */
export const ENGINES = ['http-proxy-3', 'undici'] as const;
export type Engine = (typeof ENGINES)[number];
