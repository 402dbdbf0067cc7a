import type { Env } from '#common';

/** Where a command writes: the process's stdout or stderr, or a test's buffer. */
export type CliStream = NodeJS.WritableStream;

/**
 * What one run of `tokengate` reads and writes in place of the process's own, so that `main`
 * runs in-process (the tests drive it without starting Node) and changes nothing global: the
 * environment is read from `env` only, output goes to `stdout` and `stderr`, and the exit
 * status is returned rather than set.
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
}

/** The process's own: what the real `tokengate` entry point passes. */
export function processIo(): CliIo {
  return { env: process.env, stdout: process.stdout, stderr: process.stderr, cwd: process.cwd() };
}
