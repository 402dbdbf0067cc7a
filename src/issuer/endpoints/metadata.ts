import { createHash } from 'node:crypto';
import { SUPPORTED_ALGORITHMS } from '#auth';
import { SCOPES } from '#common';
import { ASSERTION_ALGORITHMS } from '../oauth/client-assertion.ts';
import { PATHS } from './paths.ts';
import type { PublicDocument } from './public-document.ts';

/**
 * Where the metadata is served: the well-known path, and for an issuer with a path component
 * (`PUBLIC_URL=https://host/tg`) also that path inserted after it, where RFC 8414 §3.1 clients
 * look (`/.well-known/oauth-authorization-server/tg`); a proxy that strips `/tg` before the
 * gateway forwards that URL as it is.
 */
export function metadataPaths(issuer: string): string[] {
  const path = new URL(issuer).pathname.replace(/\/+$/, '');
  return path === '' ? [PATHS.metadata] : [PATHS.metadata, PATHS.metadata + path];
}

/**
 * RFC 8414 metadata, every URL under the issuer identifier (PUBLIC_URL) so discovery by standard
 * clients lands on the gateway. `response_types_supported` is REQUIRED by the RFC but we have no
 * authorization endpoint: `[]` (conformance checklist MD-03).
 */
export function metadataDocument(issuer: string): PublicDocument {
  const base = issuer.replace(/\/+$/, '');
  const authMethods = ['client_secret_basic', 'client_secret_post', 'private_key_jwt'];
  const body = JSON.stringify({
    issuer,
    token_endpoint: base + PATHS.token,
    revocation_endpoint: base + PATHS.revoke,
    jwks_uri: base + PATHS.jwks,
    grant_types_supported: ['client_credentials'],
    response_types_supported: [],
    token_endpoint_auth_methods_supported: authMethods,
    token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    revocation_endpoint_auth_methods_supported: authMethods,
    revocation_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    // RFC 7662 §4 / RFC 8414 §2: clients with the introspect permission authenticate as at the token endpoint.
    introspection_endpoint: base + PATHS.introspect,
    introspection_endpoint_auth_methods_supported: authMethods,
    introspection_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    scopes_supported: [...SCOPES],
    dpop_signing_alg_values_supported: SUPPORTED_ALGORITHMS,
  });
  const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
  return { body, etag, contentType: 'application/json; charset=utf-8' };
}
