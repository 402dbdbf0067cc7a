import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * An independent authorization server in this process: node-oidc-provider on a free loopback
 * port, with one confidential client for the client-credentials grant and resource indicators
 * (RFC 8707). A resource ending in `/opaque` gets opaque tokens (for introspection) for the
 * resource without that suffix; any other gets RFC 9068 JWT access tokens with it as `aud`.
 */
export interface OidcIssuer {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The resource server's own client, which introspects (RFC 7662). */
  readonly gatewayClient: { readonly id: string; readonly secret: string };
  /** A client-credentials token for `resource` with `scope`. */
  token(resource: string, scope: string): Promise<string>;
  /** Revokes a token at the issuer (RFC 7009), as its client. */
  revoke(token: string): Promise<void>;
  close(): Promise<void>;
}

export const RESOURCE = 'https://validation.test';

export async function startOidcIssuer(): Promise<OidcIssuer> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const clientId = 'partner-app';
  const clientSecret = 'partner-app-secret-0123456789abcdef';
  const gatewayClient = { id: 'tokengate-gateway', secret: 'gateway-introspection-secret-0123456789' };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: gatewayClient.id,
        client_secret: gatewayClient.secret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'partner-1', alg: 'RS256', use: 'sig' }] },
    ttl: { ClientCredentials: 600 },
    features: {
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => ({
          scope: 'address phone email',
          audience: resource.replace(/\/opaque$/, ''),
          accessTokenTTL: 600,
          accessTokenFormat: resource.endsWith('/opaque') ? 'opaque' : 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  server.on('request', provider.callback());
  const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
  return {
    issuer,
    clientId,
    clientSecret,
    gatewayClient,
    async revoke(token) {
      const res = await fetch(`${issuer}/token/revocation`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }),
      });
      if (res.status !== 200) throw new Error(`revocation answered ${res.status}`);
    },
    async token(resource, scope) {
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource }),
      });
      const body = (await res.json()) as { access_token?: string };
      if (res.status !== 200 || body.access_token === undefined)
        throw new Error(`token request answered ${res.status}: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
