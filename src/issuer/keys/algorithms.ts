import { createHash, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';

export type SigningAlg = 'RS256' | 'ES256' | 'EdDSA';

const generate = promisify(generateKeyPair);

/** RSA 2048 (RFC 8725/7518 minimum), P-256, Ed25519. */
export async function generatePair(alg: SigningAlg): Promise<{ privateKey: KeyObject; publicKey: KeyObject }> {
  if (alg === 'RS256') return generate('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  if (alg === 'ES256') return generate('ec', { namedCurve: 'P-256' });
  return generate('ed25519', {});
}

/** JWK members of the public key only; an allow-list, so no private member can slip through. */
const PUBLIC_MEMBERS: Record<string, readonly string[]> = {
  RSA: ['kty', 'n', 'e'],
  EC: ['kty', 'crv', 'x', 'y'],
  OKP: ['kty', 'crv', 'x'],
};

export function publicMembers(jwk: Record<string, unknown>): Record<string, string> {
  const members = PUBLIC_MEMBERS[String(jwk['kty'])];
  if (!members) throw new TypeError(`unsupported key type ${String(jwk['kty'])}`);
  const out: Record<string, string> = {};
  for (const name of members) out[name] = String(jwk[name]);
  return out;
}

/** RFC 7638 thumbprint: SHA-256 of the required members in lexicographic order, base64url. */
export function thumbprint(jwk: Record<string, unknown>): string {
  const members = publicMembers(jwk);
  const canonical = JSON.stringify(
    Object.fromEntries(
      Object.keys(members)
        .sort()
        .map((k) => [k, members[k]]),
    ),
  );
  return createHash('sha256').update(canonical).digest('base64url');
}
