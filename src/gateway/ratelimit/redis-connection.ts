import type { Logger } from '#common';
import { Redis } from 'ioredis';
import { LEASE_SCRIPT, type LeaseReply } from './lease-script.ts';

/**
 * The one Redis connection of a gateway, through ioredis (kept by the Redis community, ~55 M
 * downloads a month; it reconnects on its own, caches the script by SHA and falls back to EVAL).
 * Nothing waits for Redis: no offline queue (a command while disconnected fails at once), a
 * timeout on every command, and reconnection attempts every 100 ms growing to 2 s, forever.
 */
export interface RedisConnection {
  lease(
    key: string,
    capacity: number,
    windowMs: number,
    want: number,
    debt: number,
    ttlMs: number,
  ): Promise<LeaseReply>;
  /** Connected and not in the back-off after a failed command. */
  usable(now: number): boolean;
  connected(): boolean;
  /** A command failed (timeout, refused): decide without Redis for a second. */
  failed(now: number, error: unknown): void;
  close(): void;
}

type WithLease = Redis & {
  tgLease(key: string, ...args: (string | number)[]): Promise<LeaseReply>;
};

const BACK_OFF_MS = 1_000;

export function connectRedis(url: string, timeoutMs: number, log: Logger): RedisConnection {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(timeoutMs, 1_000),
    retryStrategy: (times) => Math.min(100 * times, 2_000),
  }) as WithLease;
  client.defineCommand('tgLease', { numberOfKeys: 1, lua: LEASE_SCRIPT });
  let reported: 'up' | 'down' | undefined;
  let closing = false;
  let downUntil = 0;
  // One line per change of state, not one per failed command or reconnection attempt.
  client.on('ready', () => {
    if (reported !== 'up') log.info({ redis: redact(url) }, 'rate limits: Redis connected');
    reported = 'up';
  });
  const lost = (reason: string) => {
    if (reported !== 'down' && !closing)
      log.warn({ redis: redact(url), err: reason }, 'rate limits: Redis unreachable; deciding without it');
    reported = 'down';
  };
  // A refused connection is an 'error'; a server that went away cleanly only a 'close'.
  client.on('error', (error: Error) => lost(error.message));
  client.on('close', () => lost('connection closed'));
  return {
    lease: (key, capacity, windowMs, want, debt, ttlMs) => client.tgLease(key, capacity, windowMs, want, debt, ttlMs),
    usable: (now) => client.status === 'ready' && now >= downUntil,
    connected: () => client.status === 'ready',
    failed(now, error) {
      if (now >= downUntil)
        log.warn({ redis: redact(url), err: String(error) }, 'rate limits: Redis command failed; deciding without it');
      downUntil = now + BACK_OFF_MS;
    },
    close() {
      closing = true;
      client.disconnect();
    },
  };
}

/** The URL without its password, for the log. */
function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
