import { pino } from 'pino';

/**
 * stdout for a busy gateway: one synchronous write per access-log line measurably costs a
 * proxied request (bench/gateway.bench.ts), so lines are buffered up to 4 KiB and flushed at
 * least every second, and synchronously before the process exits.
 */
export function bufferedStdout(): { destination: pino.DestinationStream; flush(): void } {
  const destination = pino.destination({ dest: 1, minLength: 4096, sync: false });
  const timer = setInterval(() => destination.flush(), 1_000);
  timer.unref();
  return {
    destination,
    flush() {
      clearInterval(timer);
      try {
        destination.flushSync();
      } catch {
        // not yet open or already closed: nothing buffered to lose
      }
    },
  };
}
