/**
 * Exit statuses of every `tokengate` command: 0 done (a server: stopped by SIGTERM/SIGINT after
 * draining), 1 the operation or the server failed, 2 wrong usage or an invalid configuration.
 */
export const FAILED = 1;
export const INVALID_CONFIGURATION = 2;
export const WRONG_USAGE = 2;

/**
 * A failure the operator can act on: printed as one line on stderr (never a stack trace) and
 * turned into the exit code (see above).
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: number;
  constructor(message: string, exitCode = FAILED) {
    super(message);
    this.exitCode = exitCode;
  }
}

export function usageError(message: string, usage: string): CliError {
  return new CliError(`${message}\n\nusage: ${usage}`, WRONG_USAGE);
}
