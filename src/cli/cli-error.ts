/**
 * A failure the operator can act on: printed as one line on stderr (never a stack trace) and
 * turned into the exit code. 2 = wrong usage, 1 = the operation failed.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

export function usageError(message: string, usage: string): CliError {
  return new CliError(`${message}\n\nusage: ${usage}`, 2);
}
