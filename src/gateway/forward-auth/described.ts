import type { IncomingMessage } from 'node:http';

/** Which proxy asks (`forwardAuth.proxy`): it says where the original request is read. */
export type ProxyKind = 'nginx' | 'traefik' | 'caddy' | 'envoy';

/** The request a proxy asks about, as it reports it. */
export interface DescribedRequest {
  readonly method: string;
  /** Origin form: path and query. */
  readonly target: string;
  /** The Host the client addressed, when the proxy reports it. */
  readonly host: string | undefined;
  /** `http` or `https`, when the proxy reports it. */
  readonly proto: string | undefined;
}

/** The headers each proxy sends the original method and target in, as documented (Node keeps them lower-cased). */
const NGINX = ['X-Original-Method', 'X-Original-URI'] as const;
const FORWARDED = ['X-Forwarded-Method', 'X-Forwarded-Uri'] as const;
const METHOD_AND_TARGET: Readonly<Record<Exclude<ProxyKind, 'envoy'>, readonly [string, string]>> = {
  nginx: NGINX,
  traefik: FORWARDED,
  caddy: FORWARDED,
};

/** RFC 9110 §5.6.2 token: what a method may be. */
const METHOD = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,32}$/;

/**
 * Reads the original request from the headers of `proxy` only (NGINX `auth_request`: the
 * `X-Original-*` pair its configuration sets; Traefik `forwardAuth` and Caddy `forward_auth`:
 * `X-Forwarded-Method`/`-Uri`; Envoy `ext_authz`: the request's own method and its path after
 * `pathPrefix`). Headers of the other shapes are never read: a proxy passes a client's headers on
 * to its auth request, so reading them would let the client choose the path that is judged.
 * Returns the request, or what is wrong with the description (refused with 400 `1000`).
 */
export function describedRequest(
  req: IncomingMessage,
  proxy: ProxyKind,
  pathPrefix: string | undefined,
): DescribedRequest | string {
  const headers = req.headers;
  let method: string | undefined;
  let target: string | undefined;
  if (proxy === 'envoy') {
    method = req.method;
    const url = req.url ?? '/';
    const prefix = pathPrefix?.replace(/\/+$/, '') ?? '';
    if (!url.startsWith(prefix)) return `Path does not start with ${prefix}`;
    target = url.slice(prefix.length);
    if (target === '' || target.startsWith('?')) target = `/${target}`;
  } else {
    const [methodName, targetName] = METHOD_AND_TARGET[proxy];
    method = single(headers[methodName.toLowerCase()]);
    target = single(headers[targetName.toLowerCase()]);
    if (method === undefined) return `${methodName} missing or repeated`;
    if (target === undefined) return `${targetName} missing or repeated`;
  }
  if (method === undefined || !METHOD.test(method)) return 'Invalid original method';
  if (target.charCodeAt(0) !== 0x2f) return 'Invalid original request target';
  const host = single(proxy === 'envoy' ? headers.host : headers['x-forwarded-host']);
  const proto = single(headers['x-forwarded-proto'])?.toLowerCase();
  if (proto !== undefined && proto !== 'http' && proto !== 'https') return 'Invalid X-Forwarded-Proto';
  return { method, target, host, proto };
}

/** Node joins repeated lines of these headers with ", ": a value that is not one line is not read. */
function single(value: string | string[] | undefined): string | undefined {
  if (value === undefined || Array.isArray(value) || value.includes(', ')) return undefined;
  return value;
}
