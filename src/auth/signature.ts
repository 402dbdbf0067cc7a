import { type KeyObject, verify } from 'node:crypto';
import { ALGORITHM_SPECS, type SupportedAlgorithm } from './algorithms.ts';
import { perKeyMemo } from './key-memo.ts';

interface VerifyKey {
  key: KeyObject;
  padding?: number;
  saltLength?: number;
  dsaEncoding?: 'ieee-p1363';
}

// One options object per (key, alg), built on first use, so the hot path allocates nothing for it.
const verifyKeyFor = perKeyMemo((key: KeyObject, alg: SupportedAlgorithm): VerifyKey => {
  const spec = ALGORITHM_SPECS[alg];
  const options: VerifyKey = { key };
  if (spec.padding !== undefined) options.padding = spec.padding;
  if (spec.saltLength !== undefined) options.saltLength = spec.saltLength;
  if (spec.dsaEncoding !== undefined) options.dsaEncoding = spec.dsaEncoding;
  return options;
});

/** Verifies a JWS signature with node:crypto directly (the signing input is ASCII). */
export function verifySignature(alg: SupportedAlgorithm, key: KeyObject, signingInput: string, signature: Buffer): boolean {
  const spec = ALGORITHM_SPECS[alg];
  if (spec.signatureBytes !== undefined && signature.length !== spec.signatureBytes) return false;
  try {
    return verify(spec.digest, Buffer.from(signingInput, 'latin1'), verifyKeyFor(key, alg), signature);
  } catch {
    // Malformed signatures (e.g. out-of-range ECDSA values) may throw rather than return false.
    return false;
  }
}
