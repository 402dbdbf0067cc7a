import type { SigningKey, SigningKeyStatus } from '#store';
import { generatePair, publicMembers, type SigningAlg, thumbprint } from './algorithms.ts';
import type { KeyWrapper } from './envelope.ts';

/**
 * A fresh key pair as the store keeps it: the public JWK (public members + kid, alg, use) and
 * the private JWK, encrypted when a KEY_ENCRYPTION_KEY is configured.
 */
export async function newSigningKey(
  alg: SigningAlg,
  status: SigningKeyStatus,
  now: number,
  wrapper: KeyWrapper | null,
): Promise<SigningKey> {
  const { privateKey, publicKey } = await generatePair(alg);
  const jwk = publicKey.export({ format: 'jwk' }) as Record<string, unknown>;
  const kid = thumbprint(jwk);
  const privateJwk = JSON.stringify(privateKey.export({ format: 'jwk' }));
  return {
    kid,
    alg,
    status,
    publicJwk: { ...publicMembers(jwk), kid, alg, use: 'sig' },
    privateKey: wrapper ? wrapper.wrap(kid, privateJwk) : privateJwk,
    createdAt: now,
    activatedAt: status === 'active' ? now : null,
    retiredAt: null,
  };
}
