import type { VerifierOptions } from './types.ts';

export interface VerifierConfig {
  readonly toleranceSec: number;
  readonly maxLifetimeSec: number;
  readonly maxTokenLength: number;
  readonly tokenCacheEntries: number;
  readonly tokenCacheBytes: number;
  readonly negativeEntries: number;
  readonly negativeTtlSec: number;
  readonly negativeBytes: number;
}

/**
 * The verifier's defaults (README "Verifier options"). Exported so that a host exposing these
 * options (the gateway's `gateway.yaml`) documents and applies the same values.
 */
export const VERIFIER_DEFAULTS = {
  clockToleranceSec: 5,
  maxTokenLifetimeSec: 3600,
  maxTokenLength: 8192,
  tokenCache: { maxEntries: 100_000, maxBytes: 64 * 1024 * 1024 },
  negativeCache: { maxEntries: 10_000, ttlSec: 30 },
} as const;

function count(name: string, value: number | undefined, fallback: number): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n < 0) throw new TypeError(`"${name}" must be a non-negative integer`);
  return n;
}

/** Checks the options once, eagerly (misuse throws TypeError), and applies the defaults. */
export function checkVerifierOptions(options: VerifierOptions): VerifierConfig {
  if (typeof options.issuer !== 'string' || options.issuer === '')
    throw new TypeError('"issuer" must be a non-empty string');
  if (typeof options.audience !== 'string' || options.audience === '')
    throw new TypeError('"audience" must be a non-empty string');
  if (typeof options.keys?.get !== 'function') throw new TypeError('"keys" must be a KeyResolver');
  if (typeof options.revocations?.isRevoked !== 'function')
    throw new TypeError('"revocations" must be a RevocationChecker');
  const d = VERIFIER_DEFAULTS;
  const tokenCacheEntries = count('tokenCache.maxEntries', options.tokenCache?.maxEntries, d.tokenCache.maxEntries);
  return {
    toleranceSec: count('clockToleranceSec', options.clockToleranceSec, d.clockToleranceSec),
    maxLifetimeSec: count('maxTokenLifetimeSec', options.maxTokenLifetimeSec, d.maxTokenLifetimeSec),
    maxTokenLength: count('maxTokenLength', options.maxTokenLength, d.maxTokenLength),
    tokenCacheEntries,
    tokenCacheBytes: Math.max(1, count('tokenCache.maxBytes', options.tokenCache?.maxBytes, d.tokenCache.maxBytes)),
    negativeEntries: count('negativeCache.maxEntries', options.negativeCache?.maxEntries, d.negativeCache.maxEntries),
    negativeTtlSec: count('negativeCache.ttlSec', options.negativeCache?.ttlSec, d.negativeCache.ttlSec),
    negativeBytes: 8 * 1024 * 1024,
  };
}
