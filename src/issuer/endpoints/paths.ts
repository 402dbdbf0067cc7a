/**
 * The issuer's endpoint paths under PUBLIC_URL. Their own module: the metadata document
 * advertises them and also names the client-assertion algorithms, while the client-assertion
 * and DPoP checks need the token path for their audiences.
 */
export const PATHS = {
  token: '/oauth/token',
  revoke: '/oauth/revoke',
  introspect: '/oauth/introspect',
  jwks: '/.well-known/jwks.json',
  metadata: '/.well-known/oauth-authorization-server',
} as const;
