import { BENCH_AUDIENCE, BENCH_ISSUER } from './mint.ts';

/** The bearer route every gateway scenario calls (the autocomplete route's error body adds `completions`). */
export const BEARER_PATH = '/api/au/address/autocomplete';
/** A route with `auth: none`: what the gateway's own forwarding costs before any bearer work. */
export const PUBLIC_PATH = '/public/ping';

/** The measured gateway's YAML: the bench upstream as key set, feed and upstream; access log on. */
export function gatewayYaml(upstream: string, feedToken: string, engine = 'http-proxy-3'): string {
  return `listen: { port: 0 }
upstream: { url: "${upstream}", engine: ${engine} }
issuer:
  issuer: ${BENCH_ISSUER}
  audience: ${BENCH_AUDIENCE}
  revocationFeed: { token: ${feedToken} }
metrics: { port: 0 }
routes:
  - { path: ${BEARER_PATH}, auth: bearer, scopes: [address], errorFields: { completions: [] } }
  - { path: ${PUBLIC_PATH}, auth: none }
`;
}
