import { pino } from 'pino';

/**
 * stdout for a busy gateway: one write per access-log line measurably costs a proxied request
 * (bench/gateway.bench.ts), so lines are buffered (up to sonic-boom's largest buffer, just
 * under 16 KiB), written at least every second, and flushed synchronously before exit.
 */
export function bufferedStdout(): { destination: pino.DestinationStream; flush(): void } {
  const destination = pino.destination({ dest: 1, minLength: 16_000, sync: false, periodicFlush: 1_000 });
  return {
    destination,
    flush() {
      try {
        destination.flushSync();
      } catch {
        // not yet open or already closed: nothing buffered to lose
      }
    },
  };
}
