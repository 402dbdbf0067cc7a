import { type Env, ignoreHangUps, stopSignal } from '#common';

/** Where a command writes: the process's stdout or stderr, or a test's buffer. */
export type CliStream = NodeJS.WritableStream;

/** The signal handling of src/common/signals.ts, as the commands that serve use it. */
export interface CliSignals {
  /** Resolves with the first SIGTERM or SIGINT: the command stops what it serves and returns. */
  stopSignal(): Promise<NodeJS.Signals>;
  /** From now on a SIGHUP does not end the process. */
  ignoreHangUps(): void;
}

/**
 * What one run of `tokengate` reads and writes in place of the process's own, so that `main`
 * runs in-process (the tests drive it without starting Node) and changes nothing global: the
 * environment is read from `env` only, output goes to `stdout` and `stderr`, the exit status is
 * returned rather than set, and `upstream` and `start` listen for signals through `signals`.
 */
export interface CliIo {
  readonly env: Env;
  readonly stdout: CliStream;
  readonly stderr: CliStream;
  /**
   * Where the admin commands' relative paths start (DATA_DIR's default ./data, `--gnaf`,
   * `--jwks`). The gateway's configuration file is read by the gateway's loader, from the
   * process's working directory.
   */
  readonly cwd: string;
  /**
   * The process's listeners are installed before the configuration is checked (a SIGTERM while
   * the store opens must stop the start): a test's stand-in installs none, and its stop decides
   * when a command that started instead of refusing returns.
   */
  readonly signals: CliSignals;
}

/** The process's own: what the real `tokengate` entry point passes. */
export function processIo(): CliIo {
  return {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    signals: { stopSignal, ignoreHangUps },
  };
}
