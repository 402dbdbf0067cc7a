import type { RemoteKeySetOptions } from './types.ts';

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
  const minMaxAgeSec = positive('minMaxAgeSec', options.minMaxAgeSec, 60);
  const maxMaxAgeSec = positive('maxMaxAgeSec', options.maxMaxAgeSec, 3600);
  if (minMaxAgeSec > maxMaxAgeSec) throw new TypeError('"minMaxAgeSec" must not exceed "maxMaxAgeSec"');
  return {
    url: url.href,
    fetchTimeoutMs: positive('fetchTimeoutMs', options.fetchTimeoutMs, 5000),
    minMaxAgeSec,
    maxMaxAgeSec,
    defaultMaxAgeSec: 300,
    cooldownSec: positive('cooldownSec', options.cooldownSec, 30),
    maxStaleSec: positive('maxStaleSec', options.maxStaleSec, 3600),
    maxResponseBytes: positive('maxResponseBytes', options.maxResponseBytes, 256 * 1024),
    unknownKidMemory: Math.max(1, Math.floor(positive('unknownKidMemory', options.unknownKidMemory, 1000))),
  };
}
