import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * One trusted address: an IPv4 or IPv6 address, or a CIDR block (`10.0.0.0/8`, `fd00::/8`).
 * Checked here so a typo fails `check-config`, not the first request.
 */
export const trustedAddress = z.string().refine(isAddressOrBlock, {
  error: 'must be an IP address or a CIDR block such as 10.0.0.0/8',
});

export function isAddressOrBlock(value: string): boolean {
  const slash = value.indexOf('/');
  const address = slash === -1 ? value : value.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return false;
  if (slash === -1) return true;
  const bits = value.slice(slash + 1);
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

export const forwardAuthSchema = z
  .strictObject({
    proxy: z
      .enum(['nginx', 'traefik', 'caddy', 'envoy'])
      .describe(
        'Which proxy asks, and so where the original request is read: `nginx` (`auth_request`): ' +
          '`X-Original-Method` and `X-Original-URI`; `traefik` (`forwardAuth`) and `caddy` (`forward_auth`): ' +
          "`X-Forwarded-Method` and `X-Forwarded-Uri`; `envoy` (`ext_authz` HTTP service): the request's own " +
          'method, and its path with `pathPrefix` taken off. Every shape reads `X-Forwarded-Host` and ' +
          "`X-Forwarded-Proto` (Envoy: `Host`) for the URL a DPoP proof's `htu` is checked against. Only " +
          "this proxy's headers are read: the others, which a client could send through it, are ignored.",
      ),
    trustedProxies: z
      .array(trustedAddress)
      .min(1)
      .describe(
        'Addresses and CIDR blocks the proxy calls from. A request from any other address is refused ' +
          'with 403 `1060` before anything it describes is read.',
      ),
    pathPrefix: z
      .string()
      .regex(/^\/[^?#]*$/, 'must be a path starting with /')
      .optional()
      .describe(
        'With `proxy: envoy`: the `path_prefix` of its `http_service`, taken off the path before the ' +
          'route is looked up. A request whose path does not start with it is refused with 400 `1000`.',
      ),
  })
  .refine((section) => section.pathPrefix === undefined || section.proxy === 'envoy', {
    message: 'only with proxy: envoy',
    path: ['pathPrefix'],
  })
  .optional()
  .describe(
    'When present, the listener decides instead of forwarding (forward-auth): it judges the request the ' +
      'proxy describes with the same routes, tokens, scopes, revocations, DPoP and rate limits, and ' +
      'answers 200 with the identity headers, or the refusal the gateway would have sent itself. See ' +
      'docs/deployment.md for NGINX, Caddy, Traefik and Envoy.',
  );

export type ForwardAuthConfig = NonNullable<z.output<typeof forwardAuthSchema>>;
