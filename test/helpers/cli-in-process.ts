import { Writable } from 'node:stream';
import { main } from '../../src/cli/cli.ts';
import type { CliSignals } from '../../src/cli/io.ts';

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** How long an in-process `upstream` or `start` that started instead of refusing serves before it is stopped. */
const STOP_AFTER_MS = 10_000;

/**
 * `tokengate ARGS` run in this process through the CLI's `main`, with `env` as its whole
 * environment: the exit status and the output the spawned command would give, without
 * starting Node (about half a second each on this machine, more for a command that serves).
 * `upstream` and `start` get stand-in signals: no listener is installed on this process, and
 * their stop comes `stopAfterMs` after they ask for it, so that one which starts instead of
 * refusing returns (exit 0: the test fails on its status rather than hanging). `gateway` owns its
 * process once configured (src/cli/gateway.ts): one that started would run to the test's timeout.
 * The tests about the process itself (signals, a closed stdout, its log lines on stdout, a lock
 * that ends with it) spawn it instead.
 */
export async function runCliInProcess(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string = process.cwd(),
  stopAfterMs: number = STOP_AFTER_MS,
): Promise<CliResult> {
  const stdout = collected();
  const stderr = collected();
  const signals = stopAfter(stopAfterMs);
  try {
    const code = await main(args, { env, stdout: stdout.stream, stderr: stderr.stream, cwd, signals });
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    signals.cancel();
  }
}

/** Signals that install nothing: the stop comes `ms` after it is asked for, unless cancelled first. */
function stopAfter(ms: number): CliSignals & { cancel(): void } {
  const timers: NodeJS.Timeout[] = [];
  return {
    stopSignal: () => new Promise((resolve) => timers.push(setTimeout(resolve, ms, 'SIGTERM'))),
    ignoreHangUps() {},
    cancel: () => timers.forEach(clearTimeout),
  };
}

function collected(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}
