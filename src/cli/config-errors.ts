import { ConfigError } from '#common';
import { CliError, INVALID_CONFIGURATION } from './cli-error.ts';

/** An invalid configuration, the gateway's file or a process's environment: one class for both. */
export function isConfigError(error: unknown): error is ConfigError {
  return error instanceof ConfigError;
}

/**
 * A configuration mistake is the operator's to fix: its message, not a stack trace, and the
 * same exit status (2) from every command, whichever part found it.
 */
export async function withConfigErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isConfigError(error)) throw new CliError(error.message, INVALID_CONFIGURATION);
    throw error;
  }
}
