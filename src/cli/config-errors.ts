import { ConfigError } from '#upstream';
import { CliError } from './cli-error.ts';

/** A configuration mistake is the operator's to fix: its message, not a stack trace. */
export async function withConfigErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, 2);
    throw error;
  }
}
