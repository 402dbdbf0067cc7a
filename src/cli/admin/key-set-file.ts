import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { usageError } from '../cli-error.ts';
import { required } from './args.ts';
import type { AdminCommand, CommandInput } from './command.ts';

/** The JSON of `--jwks FILE`; the admin API checks that it is a public key set. */
export async function readKeySet(input: CommandInput, command: AdminCommand): Promise<unknown> {
  const file = required(input, command, 'jwks');
  let text: string;
  try {
    text = await readFile(resolve(input.cwd, file), 'utf8');
  } catch (error) {
    throw usageError(`--jwks: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`, command.usage);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw usageError(`--jwks: ${file} is not JSON`, command.usage);
  }
}
