import type { IssuerConfig } from './types.ts';

const ALGORITHMS = new Set(['RS256', 'ES256', 'EdDSA']);

/** Misuse at start-up throws (a TypeError naming the field), never a request-time failure. */
export function checkIssuerConfig(config: IssuerConfig): void {
  let url: URL;
  try {
    url = new URL(config.issuer);
  } catch {
    throw new TypeError(`issuer: not an absolute URL: ${JSON.stringify(config.issuer)}`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash) {
    throw new TypeError('issuer: must be an http(s) URL without query or fragment (RFC 8414 §2)');
  }
  if (!config.audience) throw new TypeError('audience: must not be empty (RFC 9068 requires aud)');
  if (!ALGORITHMS.has(config.algorithm))
    throw new TypeError(`algorithm: must be RS256, ES256 or EdDSA, not ${JSON.stringify(config.algorithm)}`);
  if (!config.feedToken) throw new TypeError('feedToken: must not be empty');
}
