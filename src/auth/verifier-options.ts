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
  const tokenCacheEntries = count('tokenCache.maxEntries', options.tokenCache?.maxEntries, 100_000);
  return {
    toleranceSec: count('clockToleranceSec', options.clockToleranceSec, 5),
    maxLifetimeSec: count('maxTokenLifetimeSec', options.maxTokenLifetimeSec, 3600),
    maxTokenLength: count('maxTokenLength', options.maxTokenLength, 8192),
    tokenCacheEntries,
    tokenCacheBytes: Math.max(1, count('tokenCache.maxBytes', options.tokenCache?.maxBytes, 64 * 1024 * 1024)),
    negativeEntries: count('negativeCache.maxEntries', options.negativeCache?.maxEntries, 10_000),
    negativeTtlSec: count('negativeCache.ttlSec', options.negativeCache?.ttlSec, 60),
    negativeBytes: 8 * 1024 * 1024,
  };
}
