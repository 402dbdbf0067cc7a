import type { KeyObject } from 'node:crypto';

/**
 * The asymmetric algorithms the verifier supports (verified with node:crypto directly, no JOSE
 * library on the hot path) and the key type each needs. HMAC and
 * `none` are absent on purpose: a key anyone can read must never verify a token (RFC 8725 §3.1).
 */
export const SUPPORTED_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;
export type SupportedAlgorithm = (typeof SUPPORTED_ALGORITHMS)[number];

/** The key type each algorithm needs (verification itself is in signature.ts). */
export interface AlgorithmSpec {
  readonly keyTypes: readonly string[];
  readonly namedCurve?: string;
}

export const ALGORITHM_SPECS: Readonly<Record<SupportedAlgorithm, AlgorithmSpec>> = {
  RS256: { keyTypes: ['rsa'] },
  PS256: { keyTypes: ['rsa', 'rsa-pss'] },
  ES256: { keyTypes: ['ec'], namedCurve: 'prime256v1' },
  EdDSA: { keyTypes: ['ed25519'] },
};

export function isSupportedAlgorithm(alg: string): alg is SupportedAlgorithm {
  return Object.hasOwn(ALGORITHM_SPECS, alg);
}

/** Checks configured algorithms once at construction: misuse throws a TypeError. */
export function pinAlgorithms(algorithms: readonly string[]): ReadonlySet<SupportedAlgorithm> {
  if (!Array.isArray(algorithms) || algorithms.length === 0) {
    throw new TypeError('"algorithms" must list at least one of ' + SUPPORTED_ALGORITHMS.join(', '));
  }
  const pinned = new Set<SupportedAlgorithm>();
  for (const alg of algorithms) {
    if (alg.toLowerCase() === 'none' || alg.startsWith('HS')) {
      throw new TypeError(`"algorithms": ${alg} is refused (unsigned or symmetric tokens are never accepted)`);
    }
    if (!isSupportedAlgorithm(alg)) throw new TypeError(`"algorithms": unsupported algorithm ${alg}`);
    pinned.add(alg);
  }
  return pinned;
}

const MIN_RSA_BITS = 2048;

/** Whether a key can verify `alg` (RFC 8725 §3.1: one algorithm per key; RSA keys ≥ 2048 bits). */
export function keyFitsAlgorithm(key: KeyObject, alg: SupportedAlgorithm): boolean {
  const spec = ALGORITHM_SPECS[alg];
  if (key.type !== 'public' || !spec.keyTypes.includes(key.asymmetricKeyType ?? '')) return false;
  const details = key.asymmetricKeyDetails;
  if (spec.namedCurve !== undefined && details?.namedCurve !== spec.namedCurve) return false;
  if (spec.keyTypes.includes('rsa') && (details?.modulusLength ?? 0) < MIN_RSA_BITS) return false;
  return true;
}
