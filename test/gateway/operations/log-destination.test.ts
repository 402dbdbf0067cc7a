import { execFileSync } from 'node:child_process';
import { pbkdf2 } from 'node:crypto';
import { closeSync, constants, createReadStream, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bufferedStdout } from '../../../src/gateway/process/log-destination.ts';

// A real file stands in for stdout: the destination only ever sees a file descriptor.
const opened: number[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const fd of opened.splice(0)) closeSync(fd);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new temporary directory, removed after the test. */
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tg-log-'));
  dirs.push(dir);
  return dir;
}

function target(): { fd: number; read(): string } {
  const path = join(tempDir(), 'out.log');
  const fd = openSync(path, 'w');
  opened.push(fd);
  return { fd, read: () => readFileSync(path, 'utf8') };
}

function manyLines(): string[] {
  const lines: string[] = [];
  for (let i = 0; i < 5_000; i++) lines.push(`{"n":${i},"client":"${i % 7 === 0 ? 'Zoë · 東京' : 'plain'}"}\n`);
  lines.splice(2_500, 0, `{"big":"${'x'.repeat(100_000)}"}\n`);
  return lines;
}

/** Keeps every thread of libuv's pool (where asynchronous file writes run) busy for a while. */
function busyThreadPool(): Promise<unknown> {
  const jobs = Array.from(
    { length: 16 },
    () => new Promise((resolve) => pbkdf2('x', 'salt', 200_000, 32, 'sha256', resolve)),
  );
  return Promise.all(jobs);
}

/**
 * A FIFO nobody reads yet: once its 64 KiB buffer is full, writes to it block, as to a stdout
 * whose log reader is stuck, or, to a `non-blocking` write end, fail with EAGAIN. With `reader
 * gone` its only reader has closed, so writes fail with EPIPE (Node ignores SIGPIPE). `drain`
 * starts reading and resolves with all text read once `done` says so, given the byte count so
 * far and the text of the last two reads.
 */
function unreadPipe(writeEnd: 'blocking' | 'non-blocking' | 'reader gone' = 'blocking'): {
  fd: number;
  drain(done: (bytes: number, tail: string) => boolean): Promise<string>;
  bytesRead(): number;
} {
  const path = join(tempDir(), 'stdout.fifo');
  execFileSync('mkfifo', [path]);
  // Both ends, blocking; as a reader that never reads, it lets the write ends below be opened.
  const both = openSync(path, 'r+');
  opened.push(both);
  let fd = both;
  if (writeEnd === 'non-blocking') {
    fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    opened.push(fd);
  } else if (writeEnd === 'reader gone') {
    fd = openSync(path, constants.O_WRONLY);
    opened.splice(opened.indexOf(both), 1, fd);
    closeSync(both);
  }
  let bytes = 0;
  return {
    fd,
    bytesRead: () => bytes,
    drain: (done) =>
      new Promise((resolve) => {
        const chunks: Buffer[] = [];
        const reader = createReadStream(path);
        reader.on('data', (data) => {
          chunks.push(data as Buffer);
          bytes += data.length;
          if (done(bytes, Buffer.concat(chunks.slice(-2)).toString())) {
            reader.destroy();
            resolve(Buffer.concat(chunks).toString());
          }
        });
      }),
  };
}

describe('buffered stdout for the access log', () => {
  it('writes every line once, in order, across many chunks, multi-byte text and a line larger than a chunk', async () => {
    const out = target();
    const { destination, flush } = bufferedStdout(out.fd);
    const lines = manyLines();
    for (const line of lines) destination.write(line);
    await flush();
    expect(out.read()).toBe(lines.join(''));
  });

  it('flush waits for a chunk still being written, so nothing is lost or reordered at exit', async () => {
    const out = target();
    const { destination, flush } = bufferedStdout(out.fd);
    const busy = busyThreadPool();
    try {
      // The first full chunk's write is queued behind the busy pool; the rest pile up behind it.
      const lines = manyLines();
      for (const line of lines) destination.write(line);
      // A bound well past the busy pool's time, however loaded the machine.
      expect(await flush(30_000)).toBe(true);
      expect(out.read()).toBe(lines.join(''));
    } finally {
      await busy;
    }
  });

  it('gives up waiting on a blocked stdout after its bound, and still writes everything once the reader drains', async () => {
    const pipe = unreadPipe();
    const { destination, flush } = bufferedStdout(pipe.fd);
    const lines = manyLines();
    for (const line of lines) destination.write(line);
    const started = performance.now();
    expect(await flush(300)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
    // The process lives on here: the queued chunks follow as the reader drains the pipe.
    const expected = lines.join('');
    expect(await pipe.drain((bytes) => bytes >= Buffer.byteLength(expected))).toBe(expected);
  });

  it('past 16 MiB unwritten drops new lines, and says how many at exit', async () => {
    const pipe = unreadPipe();
    const { destination, flush } = bufferedStdout(pipe.fd);
    const lines = Array.from({ length: 20_000 }, (_, i) => `{"n":${i},"pad":"${'z'.repeat(1_000)}"}\n`);
    for (const line of lines) destination.write(line);
    expect(await flush(200)).toBe(false);
    const text = await pipe.drain((_, tail) => tail.endsWith('}\n') && tail.includes('"dropped":'));
    const notice = /\{"level":40,"time":\d+,"msg":"log lines dropped \(stdout blocked\)","dropped":(\d+)\}\n$/.exec(
      text,
    );
    expect(notice).not.toBeNull();
    const dropped = Number(notice?.[1]);
    const kept = lines.length - dropped;
    expect(dropped).toBeGreaterThan(2_000);
    expect(text).toBe(lines.slice(0, kept).join('') + (notice?.[0] ?? ''));
  });

  it('puts the dropped-lines warning where lines went missing once stdout moves again', async () => {
    const pipe = unreadPipe();
    const { destination, flush } = bufferedStdout(pipe.fd);
    const lines = Array.from({ length: 20_000 }, (_, i) => `{"n":${i},"pad":"${'z'.repeat(1_000)}"}\n`);
    for (const line of lines) destination.write(line);
    const after = '{"msg":"after the gap"}\n';
    const drained = pipe.drain((_, tail) => tail.endsWith(after));
    // Once the reader has taken half the backlog, lines are kept again: the next one follows the warning.
    await expect.poll(() => pipe.bytesRead(), { timeout: 10_000, interval: 20 }).toBeGreaterThan(8 * 2 ** 20);
    destination.write(after);
    expect(await flush(10_000)).toBe(true);
    const text = await drained;
    const notice = /\{"level":40,"time":\d+,"msg":"log lines dropped \(stdout blocked\)","dropped":(\d+)\}\n/.exec(
      text,
    );
    const dropped = Number(notice?.[1]);
    expect(dropped).toBeGreaterThan(2_000);
    expect(text).toBe(lines.slice(0, lines.length - dropped).join('') + (notice?.[0] ?? '') + after);
  });

  it('tries a full non-blocking stdout pipe again, so every line arrives once, in order, when the reader catches up', async () => {
    const pipe = unreadPipe('non-blocking');
    const { destination, flush } = bufferedStdout(pipe.fd);
    const lines = manyLines();
    for (const line of lines) destination.write(line);
    // The pipe is full and nobody reads: writes fail with EAGAIN, which is not "written".
    expect(await flush(300)).toBe(false);
    const expected = lines.join('');
    const drained = pipe.drain((bytes) => bytes >= Buffer.byteLength(expected));
    expect(await flush(10_000)).toBe(true);
    expect(await drained).toBe(expected);
  });

  it('counts lines lost to a failed write (the reader gone) in the dropped-lines warning, and keeps lines again once a reader is back', async () => {
    const pipe = unreadPipe('reader gone');
    const { destination, flush } = bufferedStdout(pipe.fd);
    const lines = Array.from({ length: 1_000 }, (_, i) => `{"n":${i},"pad":"${'z'.repeat(100)}"}\n`);
    for (const line of lines) destination.write(line);
    // EPIPE: nothing was written, and flush says so as soon as the write fails, long before its bound.
    expect(await flush(60_000)).toBe(false);
    const after = '{"msg":"reader back"}\n';
    const drained = pipe.drain((_, tail) => tail.endsWith(after));
    // The warning is tried again about once a second: the first write that succeeds is the warning itself.
    await expect.poll(() => pipe.bytesRead(), { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
    expect(await flush(10_000)).toBe(true);
    destination.write(after);
    expect(await flush(10_000)).toBe(true);
    expect(await drained).toMatch(
      /^\{"level":40,"time":\d+,"msg":"log lines dropped \(stdout blocked\)","dropped":1000\}\n\{"msg":"reader back"\}\n$/,
    );
  });

  it('keeps writing after a flush', async () => {
    const out = target();
    const { destination, flush } = bufferedStdout(out.fd);
    destination.write('{"msg":"before"}\n');
    await flush();
    destination.write('{"msg":"after"}\n');
    await flush();
    expect(out.read()).toBe('{"msg":"before"}\n{"msg":"after"}\n');
  });

  it('holds a quiet line no longer than about a second', async () => {
    const out = target();
    const { destination } = bufferedStdout(out.fd);
    destination.write('{"msg":"one line"}\n');
    expect(out.read()).toBe('');
    await expect.poll(() => out.read(), { timeout: 2_500, interval: 100 }).toBe('{"msg":"one line"}\n');
  });

  it('writes a busy stream as it fills, without waiting for the timer or an exit', async () => {
    const out = target();
    const { destination } = bufferedStdout(out.fd);
    const line = `{"msg":"${'y'.repeat(200)}"}\n`;
    for (let i = 0; i < 1_000; i++) destination.write(line);
    // Under the one-second timer: the chunk was written because it filled.
    await expect
      .poll(() => out.read().length, { timeout: 900, interval: 20 })
      .toBeGreaterThanOrEqual(64 * 1024 - 3 * line.length);
  });
});
