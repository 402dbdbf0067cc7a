import type { RemoteKeySetOptions } from './key-set-types.ts';

export interface KeySetConfig {
  readonly url: string;
  readonly fetchTimeoutMs: number;
  readonly minMaxAgeSec: number;
  readonly maxMaxAgeSec: number;
  readonly defaultMaxAgeSec: number;
  readonly cooldownSec: number;
  readonly maxStaleSec: number;
  readonly maxResponseBytes: number;
  readonly unknownKidMemory: number;
}

/**
 * The remote key set's defaults (README "Keys"). Exported so that a host exposing these options
 * (the gateway's `issuer.keySet`) documents and applies the same values.
 */
export const KEY_SET_DEFAULTS = {
  algorithms: ['RS256'],
  fetchTimeoutMs: 5000,
  minMaxAgeSec: 30,
  maxMaxAgeSec: 3600,
  cooldownSec: 30,
  maxStaleSec: 3600,
  maxResponseBytes: 256 * 1024,
  unknownKidMemory: 1000,
} as const;

function positive(name: string, value: number | undefined, fallback: number): number {
  const n = value ?? fallback;
  if (!Number.isFinite(n) || n < 0) throw new TypeError(`"${name}" must be a non-negative number`);
  return n;
}

/** Checks the key-set options eagerly (TypeError on misuse) and applies the documented defaults. */
export function checkKeySetOptions(options: RemoteKeySetOptions): KeySetConfig {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new TypeError('"url" must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('"url" must be http(s)');
  const d = KEY_SET_DEFAULTS;
  const minMaxAgeSec = positive('minMaxAgeSec', options.minMaxAgeSec, d.minMaxAgeSec);
  const maxMaxAgeSec = positive('maxMaxAgeSec', options.maxMaxAgeSec, d.maxMaxAgeSec);
  if (minMaxAgeSec > maxMaxAgeSec) throw new TypeError('"minMaxAgeSec" must not exceed "maxMaxAgeSec"');
  return {
    url: url.href,
    fetchTimeoutMs: positive('fetchTimeoutMs', options.fetchTimeoutMs, d.fetchTimeoutMs),
    minMaxAgeSec,
    maxMaxAgeSec,
    defaultMaxAgeSec: 300,
    cooldownSec: positive('cooldownSec', options.cooldownSec, d.cooldownSec),
    maxStaleSec: positive('maxStaleSec', options.maxStaleSec, d.maxStaleSec),
    maxResponseBytes: positive('maxResponseBytes', options.maxResponseBytes, d.maxResponseBytes),
    unknownKidMemory: Math.max(
      1,
      Math.floor(positive('unknownKidMemory', options.unknownKidMemory, d.unknownKidMemory)),
    ),
  };
}
