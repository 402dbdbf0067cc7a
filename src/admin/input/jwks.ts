import { createPublicKey } from 'node:crypto';
import { z } from 'zod';

/** At most this many keys: rotation needs two, room for a few more. */
export const MAX_CLIENT_KEYS = 10;
const RULE = `jwks: required, a JWK set {"keys": [...]} of 1-${MAX_CLIENT_KEYS} public signing keys, each with a distinct kid`;

/** Members that only a private (or symmetric) key has: such a key must never reach the service. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
/** The public members we keep, per key type; anything else is dropped. */
const PUBLIC_MEMBERS: Record<string, readonly string[]> = {
  RSA: ['kty', 'kid', 'alg', 'use', 'n', 'e'],
  EC: ['kty', 'kid', 'alg', 'use', 'crv', 'x', 'y'],
  OKP: ['kty', 'kid', 'alg', 'use', 'crv', 'x'],
};
/** The algorithms each key type may sign assertions with (the issuer pins the same list). */
const ALGORITHMS: Record<string, readonly string[]> = { RSA: ['RS256', 'PS256'], EC: ['ES256'], OKP: ['EdDSA'] };
const MIN_RSA_BITS = 2048;

/** Why one key cannot be a client's, or null. Order: shape, private members, type, curve, size, import. */
export function keyProblem(key: unknown): string | null {
  if (typeof key !== 'object' || key === null || Array.isArray(key)) return 'each key must be a JSON object';
  const jwk = key as Record<string, unknown>;
  if (PRIVATE_MEMBERS.some((name) => name in jwk))
    return 'a key holds private key material: register only the public keys';
  const kty = jwk['kty'];
  if (typeof kty !== 'string' || !(kty in PUBLIC_MEMBERS)) return 'kty must be RSA, EC or OKP';
  const kid = jwk['kid'];
  if (typeof kid !== 'string' || kid.length === 0 || kid.length > 128 || /\p{Cc}/u.test(kid))
    return 'each key needs a kid of 1-128 characters';
  if (jwk['alg'] !== undefined && !ALGORITHMS[kty]?.includes(jwk['alg'] as string))
    return `alg of a ${kty} key must be one of ${ALGORITHMS[kty]?.join(', ')}`;
  if (jwk['use'] !== undefined && jwk['use'] !== 'sig') return 'use must be "sig" when present';
  if (kty === 'EC' && jwk['crv'] !== 'P-256') return 'an EC key must be on P-256 (ES256)';
  if (kty === 'OKP' && jwk['crv'] !== 'Ed25519') return 'an OKP key must be Ed25519 (EdDSA)';
  let bits: number | undefined;
  try {
    bits = createPublicKey({ key: publicMembers(jwk) as never, format: 'jwk' }).asymmetricKeyDetails?.modulusLength;
  } catch {
    return 'a key is not a valid public JWK';
  }
  if (kty === 'RSA' && (bits ?? 0) < MIN_RSA_BITS) return `an RSA key must have at least ${MIN_RSA_BITS} bits`;
  return null;
}

function publicMembers(jwk: Record<string, unknown>): Record<string, unknown> {
  const kept = PUBLIC_MEMBERS[jwk['kty'] as string] ?? [];
  return Object.fromEntries(Object.entries(jwk).filter(([name]) => kept.includes(name)));
}

/**
 * A client's public JWK set for private_key_jwt: 1-10 RSA (≥ 2048 bits), P-256 or Ed25519 keys,
 * each with a distinct `kid` (the assertion's `kid` picks one), none with private members.
 * Output: the set with only the public members of each key.
 */
export const jwksSchema = z
  .object({ keys: z.array(z.unknown(), { error: RULE }).min(1, RULE).max(MAX_CLIENT_KEYS, RULE) }, { error: RULE })
  .superRefine(({ keys }, ctx) => {
    for (const key of keys) {
      const problem = keyProblem(key);
      if (problem !== null) return void ctx.addIssue({ code: 'custom', message: `jwks: ${problem}` });
    }
    const kids = keys.map((key) => (key as Record<string, unknown>)['kid']);
    if (new Set(kids).size !== kids.length) ctx.addIssue({ code: 'custom', message: 'jwks: two keys share a kid' });
  })
  .transform(({ keys }) => ({ keys: keys.map((key) => publicMembers(key as Record<string, unknown>)) }));

/** How a client authenticates at the token endpoint. */
export const CLIENT_AUTH_METHODS = ['client_secret', 'private_key_jwt'] as const;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

/** A client with a key set signs assertions (private_key_jwt); one without has a secret. */
export function clientAuthMethod(client: { readonly jwks: unknown }): ClientAuthMethod {
  return client.jwks ? 'private_key_jwt' : 'client_secret';
}

export const authSchema = z.enum(CLIENT_AUTH_METHODS, {
  error: `auth: one of ${CLIENT_AUTH_METHODS.join(', ')}`,
});
