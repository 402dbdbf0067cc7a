import { BENCH_AUDIENCE, BENCH_ISSUER } from './mint.ts';

/** The bearer route every gateway scenario calls (the autocomplete route's error body adds `completions`). */
export const BEARER_PATH = '/api/au/address/autocomplete';
/** A route with `auth: none`: what the gateway's own forwarding costs before any bearer work. */
export const PUBLIC_PATH = '/public/ping';

/** Where the gateway's counters live in a scenario with rate limits (undefined: no limits). */
export type LimitsStore =
  | { readonly kind: 'memory' }
  | { readonly kind: 'redis'; readonly url: string; readonly prefix: string };

/**
 * Limits that never refuse (a billion calls a second, a trillion a month) but make every bearer
 * call take a token of all three counters (client, project, quota): the cost, not the refusals.
 */
function limitsYaml(store: LimitsStore): string {
  const redis = store.kind === 'redis' ? `\n  redis: { url: "${store.url}", keyPrefix: "${store.prefix}" }` : '';
  return `rateLimits:${redis}
  plans:
    free:
      monthlyQuota: 1000000000000
      groups:
        bench:
          client: { requests: 1000000000, windowSec: 1 }
          project: { requests: 1000000000, windowSec: 1 }
`;
}

/**
 * Issue 29's bearer route: one claim rule and two claim headers, on claims every bench token has
 * (mint.ts), so every call passes the rule and sends both headers.
 */
const CLAIMS = ', claims: { project_id: p1 }, claimHeaders: { X-Project: project_id, X-Client: client_id }';

/**
 * The measured gateway's YAML: the bench upstream as key set, feed and upstream; access log on.
 * `claims`: the bearer route has one claim rule and two claim headers.
 */
export function gatewayYaml(
  upstream: string,
  feedToken: string,
  engine = 'http-proxy-3',
  limits?: LimitsStore,
  claims = false,
): string {
  const group = (limits === undefined ? '' : ', rateLimitGroup: bench') + (claims ? CLAIMS : '');
  return `listen: { port: 0 }
upstream: { url: "${upstream}", engine: ${engine} }
issuer:
  issuer: ${BENCH_ISSUER}
  audience: ${BENCH_AUDIENCE}
  revocationFeed: { token: ${feedToken} }
metrics: { port: 0 }
${limits === undefined ? '' : limitsYaml(limits)}routes:
  - { path: ${BEARER_PATH}, auth: bearer, scopes: [address], errorFields: { completions: [] }${group} }
  - { path: ${PUBLIC_PATH}, auth: none }
`;
}
