/**
 * Resident memory of the verification runtime the gateway hosts (default cache bounds from
 * config/gateway.yaml) while 1,000,000 distinct tokens pass through it: one in 16 is a freshly
 * signed valid token (verified-token cache), the other 15 are its non-canonical base64url twins,
 * which the plugin refuses (negative cache). Signing a million RS256 tokens would take minutes
 * on this machine; this fills both caches past their bounds in seconds. Prints RSS at
 * checkpoints as one JSON line: bounded means it flattens once the caches are full.
 */
import { createRevocationSet, createVerifier, type RouteRequirement } from '#auth';
import { loadGatewayConfig } from '#gateway';
import { BENCH_AUDIENCE, BENCH_ISSUER, benchKey, encodingVariants, mintTokens } from './mint.ts';

const TOTAL = Number(process.argv[2] ?? 1_000_000);
// Default bounds unless given: the bench lowers the entry bound so that the valid tokens it can
// afford to sign overflow it and the plateau shows.
const tokenEntries = process.argv[3] ? Number(process.argv[3]) : undefined;
const config = loadGatewayConfig('config/gateway.yaml', {});
const key = benchKey();
const revocations = createRevocationSet({ maxStalenessSec: 86_400 });
revocations.markSynced();
const verifier = createVerifier({
  issuer: BENCH_ISSUER,
  audience: BENCH_AUDIENCE,
  algorithms: ['RS256'],
  keys: { get: (kid) => (kid === key.kid ? key.publicKey : undefined), ready: () => true },
  revocations,
  tokenCache: tokenEntries === undefined ? config.caches.tokens : { ...config.caches.tokens, maxEntries: tokenEntries },
  negativeCache: config.caches.negative,
});
const requirement: RouteRequirement = { scopes: ['address'], match: 'any' };
const gc = (globalThis as { gc?: () => void }).gc;
/** Resident and live-heap MiB, after a full GC when --expose-gc is given (garbage is not growth). */
const mb = () => {
  gc?.();
  const usage = process.memoryUsage();
  return { rssMb: Math.round(usage.rss / 2 ** 20), heapMb: Math.round(usage.heapUsed / 2 ** 20) };
};

const checkpoints: Array<{ tokens: number; rssMb: number; heapMb: number }> = [{ tokens: 0, ...mb() }];
let seen = 0;
let refused = 0;
let accepted = 0;
const BATCH = 4_000; // base tokens minted per round (x16 encodings)
while (seen < TOTAL) {
  for (const token of mintTokens(key, BATCH)) {
    // Once more up front: the cache admits a token on its second sighting (src/auth/admission.ts),
    // and this run is about the cache's bound when every valid token is admitted.
    verifier.authorize(`Bearer ${token}`, requirement);
    for (const variant of encodingVariants(token)) {
      const decision = verifier.authorize(`Bearer ${variant}`, requirement);
      if (!(decision instanceof Promise) && decision.ok) accepted++;
      else refused++;
      if (++seen % 200_000 === 0) checkpoints.push({ tokens: seen, ...mb() });
      if (seen >= TOTAL) break;
    }
    if (seen >= TOTAL) break;
  }
}
process.stdout.write(
  `${JSON.stringify({ checkpoints, accepted, refused, tokenCacheEntries: tokenEntries ?? config.caches.tokens.maxEntries, cache: config.caches })}\n`,
);
