import type { Logger } from '#common';
import { Redis } from 'ioredis';
import type { DpopReplayCache } from './replay-cache.ts';

/**
 * DPoP proofs accepted by any process sharing one Redis (the gateways: `rateLimits.redis.url`,
 * REDIS_URL; the upstream replicas: REDIS_URL, under their own prefix): `SET key 1 PX ttl NX`
 * answers OK only to the first that records a proof. Fails closed: while Redis does not answer,
 * proofs are refused (a replay must never pass).
 */
export function createRedisReplayCache(
  url: string,
  prefix: string,
  timeoutMs: number,
  now: () => number,
  log: Logger,
): DpopReplayCache & { close(): void } {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(timeoutMs, 1_000),
    retryStrategy: (times) => Math.min(100 * times, 2_000),
  });
  let down = false;
  // A proof that arrives while the first connection is still being made (a gateway just started)
  // waits for it, at most connectTimeout: refusing it would be a false 1027.
  const firstAttempt = new Promise<void>((resolve) => {
    client.once('ready', resolve);
    client.once('error', () => resolve());
  });
  client.on('error', (error: Error) => {
    if (!down) log.warn({ err: error.message }, 'DPoP replay cache: Redis unreachable; refusing DPoP proofs');
    down = true;
  });
  client.on('ready', () => {
    down = false;
  });
  return {
    async claim(key, expiresAtMs) {
      if (client.status !== 'ready' && !down) await firstAttempt;
      const ttl = Math.max(1, Math.ceil(expiresAtMs - now()));
      try {
        return (await client.set(`${prefix}dpop:${key}`, '1', 'PX', ttl, 'NX')) === 'OK';
      } catch {
        return false;
      }
    },
    close: () => client.disconnect(),
  };
}
