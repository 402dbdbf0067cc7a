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

/** A serving command run in this process: its output so far, and its stop (a SIGTERM's). */
export interface CliInProcess {
  stdout(): string;
  /** Resolves with the first match of `pattern` in stdout; throws if the command ends first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Stops it as a SIGTERM would, and gives its exit status and output. */
  stop(): Promise<CliResult>;
}

/**
 * `tokengate start` or `upstream` serving inside this process until `stop()`: the same code and
 * configuration as the spawned command, without starting Node and loading every module again
 * (a `start` spawned cost some 6 s of CPU here). For the tests about what the stack does, not
 * about the process (its signals, its exit, its log lines on stdout).
 */
export function startCliInProcess(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): CliInProcess {
  const stdout = collected();
  const stderr = collected();
  let stop: (signal: NodeJS.Signals) => void = () => {};
  const stopping = new Promise<NodeJS.Signals>((resolve) => (stop = resolve));
  const signals: CliSignals = { stopSignal: () => stopping, ignoreHangUps() {} };
  let ended = false;
  const result = main(args, { env, stdout: stdout.stream, stderr: stderr.stream, cwd: process.cwd(), signals }).then(
    (code) => ({ code, stdout: stdout.text(), stderr: stderr.text() }),
  );
  void result.finally(() => (ended = true));
  return {
    stdout: stdout.text,
    async waitFor(pattern, timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(stdout.text());
        if (match) return match;
        if (ended || Date.now() > deadline) throw new Error(`no ${pattern} in output; stderr: ${stderr.text()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stop() {
      stop('SIGTERM');
      return result;
    },
  };
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
