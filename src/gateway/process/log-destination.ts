import { write, writeSync } from 'node:fs';
import type { pino } from 'pino';

const FLUSH_BYTES = 64 * 1024;
/** Past this much unwritten output (stdout stuck), new lines are dropped rather than kept. */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

/**
 * stdout for a busy gateway: one write per access-log line measurably costs a proxied request
 * (bench/gateway.bench.ts), so lines are collected and written 64 KiB at a time, at least every
 * second, and synchronously before exit. Not sonic-boom: its `write` measures the byte length
 * of the whole pending buffer on every line (quadratic in the buffer size, ~2 µs a line here).
 */
export function bufferedStdout(fd = 1): { destination: pino.DestinationStream; flush(): void } {
  let pending: string[] = [];
  let pendingChars = 0;
  let writing = false;
  let dropped = 0;

  function take(): Buffer {
    const data = Buffer.from(pending.join(''), 'utf8');
    pending = [];
    pendingChars = 0;
    return data;
  }

  function writeAll(data: Buffer): void {
    writing = true;
    write(fd, data, 0, data.length, null, (error, written) => {
      if (!error && written < data.length) return writeAll(data.subarray(written));
      writing = false;
      if (pendingChars >= FLUSH_BYTES) writeAll(take());
    });
  }

  const timer = setInterval(() => {
    if (!writing && pendingChars > 0) writeAll(take());
  }, 1_000);
  timer.unref();

  return {
    destination: {
      write(line: string) {
        if (pendingChars > MAX_PENDING_BYTES) {
          dropped++;
          return;
        }
        pending.push(line);
        pendingChars += line.length;
        if (!writing && pendingChars >= FLUSH_BYTES) writeAll(take());
      },
    },
    flush() {
      if (dropped > 0) pending.push(`{"level":40,"time":${Date.now()},"msg":"log lines dropped (stdout blocked)","dropped":${dropped}}\n`);
      dropped = 0;
      const data = take();
      try {
        for (let at = 0; at < data.length; ) at += writeSync(fd, data, at);
      } catch {
        // stdout closed: nothing left to write to
      }
    },
  };
}
