import { decodeJwt } from 'jose';
import { OAuthError } from './oauth-error.ts';
import { decodeComponent, type FormParams } from './form.ts';

/** Client credentials as presented, by one mechanism only (RFC 6749 §2.3). */
export type PresentedCredentials =
  | {
      readonly clientId: string;
      readonly clientSecret: string;
      readonly method: 'client_secret_basic' | 'client_secret_post';
    }
  | {
      /** The assertion's `sub` as sent: not trusted until the assertion verifies with this client's keys. */
      readonly clientId: string;
      readonly assertion: string;
      readonly method: 'private_key_jwt';
    };

/** RFC 7523 §2.2: the one client assertion type. */
export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** The form parameters a token or revocation request authenticates with. */
export const CLIENT_AUTH_PARAMS = ['client_id', 'client_secret', 'client_assertion_type', 'client_assertion'] as const;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function unauthenticated(description: string): OAuthError {
  return new OAuthError('invalid_client', description);
}

/**
 * Takes the credentials from HTTP Basic or from the form, never both. Malformed Basic and
 * mixed mechanisms are `invalid_request` (400); missing credentials are `invalid_client` (401).
 */
export function presentedCredentials(authorization: string | undefined, form: FormParams): PresentedCredentials {
  if (form.has('client_assertion') || form.has('client_assertion_type')) return fromAssertion(authorization, form);
  if (authorization !== undefined) return fromBasic(authorization, form);
  const clientId = form.get('client_id');
  const clientSecret = form.get('client_secret');
  if (clientId === undefined || clientSecret === undefined) throw unauthenticated('client authentication failed');
  return { clientId, clientSecret, method: 'client_secret_post' };
}

function fromBasic(authorization: string, form: FormParams): PresentedCredentials {
  const [scheme, payload, ...rest] = authorization.trim().split(/ +/);
  if (scheme?.toLowerCase() !== 'basic') throw unauthenticated('only the Basic authentication scheme is supported');
  if (payload === undefined || rest.length > 0 || !BASE64.test(payload)) {
    throw new OAuthError('invalid_request', 'malformed Basic credentials');
  }
  const { clientId, clientSecret } = splitBasic(payload);
  if (form.has('client_secret')) {
    throw new OAuthError('invalid_request', 'client authentication must use only one mechanism');
  }
  const formId = form.get('client_id');
  if (formId !== undefined && formId !== clientId) throw new OAuthError('invalid_request', 'client_id mismatch');
  if (clientSecret === '') throw unauthenticated('client authentication failed');
  return { clientId, clientSecret, method: 'client_secret_basic' };
}

/** RFC 6749 §2.3.1: id and secret are form-urlencoded before base64; split at the first colon. */
function splitBasic(payload: string): { clientId: string; clientSecret: string } {
  let decoded: string;
  try {
    decoded = utf8.decode(Buffer.from(payload, 'base64'));
  } catch {
    throw new OAuthError('invalid_request', 'malformed Basic credentials');
  }
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw new OAuthError('invalid_request', 'malformed Basic credentials');
  return {
    clientId: decodeComponent(decoded.slice(0, colon)),
    clientSecret: decodeComponent(decoded.slice(colon + 1)),
  };
}

/**
 * RFC 7521 §4.2 / RFC 7523 §3: the client is the assertion's `sub` (and `iss`, checked when it
 * verifies); a `client_id` sent beside it must name the same client. Another mechanism beside
 * the assertion is `invalid_request`; anything else wrong with it is `invalid_client`.
 */
function fromAssertion(authorization: string | undefined, form: FormParams): PresentedCredentials {
  if (authorization !== undefined || form.has('client_secret')) {
    throw new OAuthError('invalid_request', 'client authentication must use only one mechanism');
  }
  const type = form.get('client_assertion_type');
  const assertion = form.get('client_assertion');
  if (type === undefined || assertion === undefined) {
    throw new OAuthError('invalid_request', 'client_assertion and client_assertion_type go together');
  }
  if (type !== JWT_BEARER_ASSERTION) throw unauthenticated('unsupported client_assertion_type');
  let sub: unknown;
  try {
    sub = decodeJwt(assertion).sub;
  } catch {
    throw unauthenticated('client authentication failed');
  }
  if (typeof sub !== 'string' || sub === '') throw unauthenticated('client authentication failed');
  const formId = form.get('client_id');
  if (formId !== undefined && formId !== sub) throw unauthenticated('client authentication failed');
  return { clientId: sub, assertion, method: 'private_key_jwt' };
}
