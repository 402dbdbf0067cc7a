import { createRedisReplayCache, type DpopReplayCache } from '#auth';
import { type Clock, type Logger, systemClock } from '#common';
import type { UpstreamConfig } from './config.ts';

/** Longest wait for Redis on a DPoP call, as the gateways' default (`rateLimits.redis.timeoutMs`). */
const REDIS_TIMEOUT_MS = 250;

/**
 * Where the upstream's own DPoP re-check records the proofs it accepted. With REDIS_URL, in Redis
 * shared by every replica, so a proof replayed straight to another replica (past the gateways) is
 * refused there too; under `<prefix>upstream:`, apart from the gateways' keys, because the proof a
 * gateway accepted and forwards is the same one checked here. Unset: undefined, and the verifier
 * keeps each replica's own memory (docs/operations.md says what holds then).
 */
export function dpopReplayCache(
  config: Pick<UpstreamConfig, 'dpopReplayRedis'>,
  log: Logger,
  clock: Clock | undefined,
): (DpopReplayCache & { close(): void }) | undefined {
  const redis = config.dpopReplayRedis;
  if (redis === undefined) return undefined;
  const now = () => (clock ?? systemClock).now();
  return createRedisReplayCache(redis.url, `${redis.keyPrefix}upstream:`, REDIS_TIMEOUT_MS, now, log);
}
