import { write } from 'node:fs';
import type { pino } from 'pino';

const CHUNK_BYTES = 64 * 1024;
/** Past this much unwritten output (stdout stuck), new lines are dropped rather than kept. */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;
/** Free chunks kept for reuse; more would only hold memory a burst once needed. */
const SPARE_CHUNKS = 4;
/** How long `flush` waits for the queue to be written (stdout may be blocked) before letting the process exit. */
const FLUSH_WAIT_MS = 2_000;
/** Write errors after which the same bytes are tried again: a full non-blocking pipe, or a signal. */
const RETRIED = new Set(['EAGAIN', 'EWOULDBLOCK', 'EINTR']);
/** The longest pause between tries at a full non-blocking pipe; pauses double up to it from 1 ms. */
const MAX_RETRY_PAUSE_MS = 50;
const NEWLINE = 0x0a;

/** Bytes waiting to be written; a dropped-lines warning carries the count it reports. */
type Pending = { data: Buffer; length: number; reports?: number };

/**
 * stdout for a busy gateway: one write per access-log line measurably costs a proxied request
 * (bench/gateway.bench.ts), so lines are collected and written 64 KiB at a time, at least every
 * second, and on `flush` at exit. Not sonic-boom: its `write` measures the byte length
 * of the whole pending buffer on every line (quadratic in the buffer size): `npm run bench --
 * log-destination` measures pino's destination at about 2 µs a line more than this writer
 * (docs/performance.md, "Own code beside a library"). Replace this file by it if that changes.
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
 *
 * A non-blocking stdout pipe does not block but fails with EAGAIN when full: the same bytes are
 * tried again after a short pause, on an unref'd timer so that it never keeps the process alive.
 * Any other write error (EPIPE: the reader is gone) loses what was not yet written; those lines
 * are counted as dropped, and so is every new line until a write succeeds again. The warning is
 * what tries: about once a second while lines come, and at `flush`, one write each, never a loop.
 */
export function bufferedStdout(fd = 1): {
  destination: pino.DestinationStream;
  flush(maxWaitMs?: number): Promise<boolean>;
} {
  let chunk: Buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  /** Filled chunks and warnings waiting for the write in flight, oldest first. */
  const queue: Pending[] = [];
  let queuedBytes = 0;
  const spare: Buffer[] = [];
  let writing = false;
  /** `flush` calls waiting for the queue to be written (true) or lost to a write error (false). */
  const waiting: ((written: boolean) => void)[] = [];
  let dropped = 0;
  /** The last write failed with an error that retrying will not cure: lines are dropped until one succeeds. */
  let failing = false;

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
    let pause = 1;
    const writeRest = () => write(fd, next.data, at, next.length - at, null, onWritten);
    const onWritten = (error: NodeJS.ErrnoException | null, written: number) => {
      if (error) {
        if (!RETRIED.has(error.code ?? '')) return lose(at);
        setTimeout(writeRest, pause).unref();
        pause = Math.min(pause * 2, MAX_RETRY_PAUSE_MS);
        return;
      }
      at += written;
      pause = 1;
      if (at < next.length) return writeRest();
      failing = false;
      queue.shift();
      queuedBytes -= next.length;
      if (next.data.length === CHUNK_BYTES && spare.length < SPARE_CHUNKS) spare.push(next.data);
      writing = false;
      writeNext();
      if (!writing) for (const resume of waiting.splice(0)) resume(true);
    };
    writeRest();
  }

  /** The write of the oldest queued bytes failed for good at `at`: it and all after it are dropped. */
  function lose(at: number): void {
    failing = true;
    for (const [i, lost] of queue.entries()) {
      dropped += lost.reports ?? linesIn(lost.data.subarray(i === 0 ? at : 0, lost.length));
      if (lost.data.length === CHUNK_BYTES && spare.length < SPARE_CHUNKS) spare.push(lost.data);
    }
    dropped += linesIn(chunk.subarray(0, used));
    queue.length = 0;
    queuedBytes = 0;
    used = 0;
    writing = false;
    for (const resume of waiting.splice(0)) resume(false);
  }

  function append(line: string): void {
    if (failing || queuedBytes > MAX_PENDING_BYTES) {
      dropped++;
      return;
    }
    if (dropped > 0) reportDropped();
    encode(line);
  }

  /**
   * A warning line where lines went missing (stdout blocked or failing), ahead of the first line
   * kept again. Queued on its own, so that if it is lost too, the count it carries is not.
   */
  function reportDropped(): void {
    const notice = Buffer.from(
      `{"level":40,"time":${Date.now()},"msg":"log lines dropped (stdout blocked)","dropped":${dropped}}\n`,
    );
    seal();
    queue.push({ data: notice, length: notice.length, reports: dropped });
    queuedBytes += notice.length;
    dropped = 0;
    writeNext();
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
    if (failing && dropped > 0 && !writing) reportDropped();
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
        waiting.push((written) => {
          clearTimeout(timeout);
          resolve(written);
        });
      });
    },
  };
}

/** Lines in whole or in part in `bytes`: every line ends with a newline, and UTF-8 puts that byte in no other character. */
function linesIn(bytes: Buffer): number {
  let lines = 0;
  for (let i = bytes.indexOf(NEWLINE); i !== -1; i = bytes.indexOf(NEWLINE, i + 1)) lines++;
  return lines;
}
