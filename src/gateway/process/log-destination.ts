import { write } from 'node:fs';
import type { pino } from 'pino';

const CHUNK_BYTES = 64 * 1024;
/** Past this much unwritten output (stdout stuck), new lines are dropped rather than kept. */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;
/** Free chunks kept for reuse; more would only hold memory a burst once needed. */
const SPARE_CHUNKS = 4;
/** How long `flush` waits for the queue to be written (stdout may be blocked) before letting the process exit. */
const FLUSH_WAIT_MS = 2_000;

/**
 * stdout for a busy gateway: one write per access-log line measurably costs a proxied request
 * (bench/gateway.bench.ts), so lines are collected and written 64 KiB at a time, at least every
 * second, and on `flush` at exit. Not sonic-boom: its `write` measures the byte length
 * of the whole pending buffer on every line (quadratic in the buffer size, ~2 µs a line here).
 *
 * Each line is encoded into a reused 64 KiB chunk as it arrives, so its string dies young.
 * Kept as strings until the flush (~300 lines), they outlived a scavenge or two and were
 * promoted, and the old generation's collector, running on helper threads of the same core,
 * then spent ~10k instructions a request on them (bench/gateway/instructions.ts).
 *
 * `flush` (at exit) hands the last chunk to the same writer and waits until everything is
 * written: writing synchronously around a write still in flight on the thread pool would put
 * later lines before it, or exit before it lands. A stdout that stays blocked (a stuck log
 * reader) must not hold up the exit forever, so the wait is bounded; `flush` then resolves
 * false and writing goes on in the background for as long as the process lives.
 */
export function bufferedStdout(fd = 1): { destination: pino.DestinationStream; flush(maxWaitMs?: number): Promise<boolean> } {
  let chunk: Buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  /** Filled chunks waiting for the write in flight, oldest first, with their byte counts. */
  const queue: { data: Buffer; length: number }[] = [];
  let queuedBytes = 0;
  const spare: Buffer[] = [];
  let writing = false;
  /** `flush` calls waiting for the queue to be written. */
  const waiting: (() => void)[] = [];
  let dropped = 0;

  function seal(): void {
    if (used === 0) return;
    queue.push({ data: chunk, length: used });
    queuedBytes += used;
    chunk = spare.pop() ?? Buffer.allocUnsafe(CHUNK_BYTES);
    used = 0;
  }

  function writeNext(): void {
    const next = queue[0];
    if (writing || next === undefined) return;
    writing = true;
    let at = 0;
    const onWritten = (error: NodeJS.ErrnoException | null, written: number) => {
      at += error ? next.length - at : written;
      if (at < next.length) {
        write(fd, next.data, at, next.length - at, null, onWritten);
        return;
      }
      queue.shift();
      queuedBytes -= next.length;
      if (next.data.length === CHUNK_BYTES && spare.length < SPARE_CHUNKS) spare.push(next.data);
      writing = false;
      writeNext();
      if (!writing) for (const resume of waiting.splice(0)) resume();
    };
    write(fd, next.data, 0, next.length, null, onWritten);
  }

  function append(line: string): void {
    if (queuedBytes > MAX_PENDING_BYTES) {
      dropped++;
      return;
    }
    if (dropped > 0) reportDropped();
    encode(line);
  }

  /** A warning line where lines went missing (stdout blocked), ahead of the first line kept again. */
  function reportDropped(): void {
    const notice = `{"level":40,"time":${Date.now()},"msg":"log lines dropped (stdout blocked)","dropped":${dropped}}\n`;
    dropped = 0;
    encode(notice);
  }

  function encode(line: string): void {
    // A UTF-8 byte per char for ASCII, at most three per UTF-16 unit otherwise.
    const worstBytes = line.length * 3;
    if (worstBytes > CHUNK_BYTES - used) {
      seal();
      if (worstBytes > CHUNK_BYTES) {
        const data = Buffer.from(line, 'utf8');
        queue.push({ data, length: data.length });
        queuedBytes += data.length;
        writeNext();
        return;
      }
      writeNext();
    }
    used += chunk.write(line, used, 'utf8');
  }

  const timer = setInterval(() => {
    seal();
    writeNext();
  }, 1_000);
  timer.unref();

  return {
    destination: { write: append },
    flush(maxWaitMs = FLUSH_WAIT_MS) {
      if (dropped > 0) reportDropped();
      seal();
      writeNext();
      if (!writing) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timeout = setTimeout(() => resolve(false), maxWaitMs);
        waiting.push(() => {
          clearTimeout(timeout);
          resolve(true);
        });
      });
    },
  };
}
