import { randomBytes } from 'node:crypto';
import { type CryptoKey, type KeyObject, SignJWT } from 'jose';

/** A private_key_jwt client's signing key: the private half of a key registered in its JWK set. */
export interface ClientSigningKey {
  readonly key: CryptoKey | KeyObject;
  /** The `kid` of the public key registered for the client: the issuer picks the key by it. */
  readonly kid: string;
  readonly alg: 'RS256' | 'PS256' | 'ES256' | 'EdDSA';
}

/** How long an assertion is valid: well inside the issuer's 5 minutes, long enough for clock skew. */
const ASSERTION_LIFETIME_SEC = 60;

/**
 * An RFC 7523 client assertion for one token request: iss = sub = client id, aud the token
 * endpoint, a fresh jti (the issuer accepts each once), signed with jose.
 */
export function clientAssertion(
  signing: ClientSigningKey,
  clientId: string,
  tokenUrl: string,
  nowMs: number,
): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: signing.alg, kid: signing.kid, typ: 'JWT' })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(tokenUrl)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ASSERTION_LIFETIME_SEC)
    .setJti(randomBytes(16).toString('base64url'))
    .sign(signing.key);
}
