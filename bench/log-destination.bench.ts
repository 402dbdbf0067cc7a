/**
 * CPU per access-log line of the gateway's own stdout writer (bufferedStdout) against pino's
 * own destination (sonic-boom), measured side by side in one run:
 * rounds interleave the writers, each writing the same lines to its own file, and a writer's
 * figure is its CPU time (every thread: the writes run on the thread pool) until all of its
 * lines are on disk, over the lines. A few seconds in all.
 */
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { bufferedStdout } from '../src/gateway/process/log-destination.ts';

const LINES = 50_000;
const ROUNDS = 3;

/**
 * An access line as the gateway writes one: built by hand and handed to the destination's
 * `write`, past pino's serialiser (src/gateway/server/access-log.ts), so only the writer differs.
 */
function accessLine(i: number): string {
  return `{"level":30,"time":${1_765_000_000_000 + i},"pid":4242,"hostname":"gw-1","reqId":"r-${i}","method":"GET","route":"/api/address/*","status":200,"decision":"allowed","clientId":"c-1f0e9d","jti":"j-${i}","ms":0.42,"msg":"request"}\n`;
}

interface Writer {
  readonly name: string;
  /** `done` resolves once every line is written; `close` then closes the file. */
  open(fd: number): { destination: pino.DestinationStream; done(): Promise<unknown>; close(): Promise<unknown> };
}

const WRITERS: readonly Writer[] = [
  {
    name: 'bufferedStdout (ours: 64 KiB chunks)',
    open(fd) {
      const { destination, flush } = bufferedStdout(fd);
      return { destination, done: () => flush(60_000), close: async () => closeSync(fd) };
    },
  },
  {
    name: 'pino.destination({ sync: false })',
    open(fd) {
      const destination = pino.destination({ dest: fd, sync: false });
      return sonicBoom(destination);
    },
  },
  {
    name: 'pino.destination({ sync: false, minLength: 8 KiB })',
    open(fd) {
      const destination = pino.destination({ dest: fd, sync: false, minLength: 8 * 1024 });
      return sonicBoom(destination);
    },
  },
];

/** sonic-boom owns the file once given it: it closes it at `end`. */
function sonicBoom(destination: ReturnType<typeof pino.destination>) {
  return {
    destination,
    done: () => new Promise((resolve) => destination.flush(resolve)),
    close: () =>
      new Promise((resolve) => {
        destination.once('close', resolve);
        destination.end();
      }),
  };
}

async function once(writer: Writer, dir: string, round: number): Promise<number> {
  const fd = openSync(join(dir, `${round}-${writer.name.length}.log`), 'w');
  const { destination, done, close } = writer.open(fd);
  const before = process.cpuUsage();
  for (let i = 0; i < LINES; i++) destination.write(accessLine(i));
  await done();
  const used = process.cpuUsage(before);
  await close();
  return (used.user + used.system) * 1000;
}

export default async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tokengate-log-bench-'));
  try {
    const ns = WRITERS.map(() => [] as number[]);
    for (const writer of WRITERS) await once(writer, dir, -1); // warm the JIT
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, writer] of WRITERS.entries()) ns[i]!.push(await once(writer, dir, round));
    }
    const perLine = ns.map((all) => Math.min(...all) / LINES);
    const ours = perLine[0]!;
    console.log(`${LINES.toLocaleString('en')} lines x ${ROUNDS} rounds, best round, CPU ns per access line written:`);
    for (const [i, writer] of WRITERS.entries()) {
      const ratio =
        i === 0 ? '' : `  ${(perLine[i]! / ours).toFixed(2)}x ours, ${(perLine[i]! - ours).toFixed(0)} ns more`;
      console.log(`  ${writer.name.padEnd(56)} ${perLine[i]!.toFixed(0).padStart(6)} ns${ratio}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await run();
