import { usageError } from '../cli-error.ts';
import type { AdminCommand, AdminValues, CommandInput } from './command.ts';

/** The value of a required `--flag`, or a usage error naming it. */
export function required(input: CommandInput, command: AdminCommand, flag: keyof AdminValues): string {
  const value = input.values[flag];
  if (typeof value !== 'string' || value.trim() === '') throw usageError(`missing --${flag}`, command.usage);
  return value.trim();
}

/** The single positional id of commands like `project delete ID`. */
export function singleId(input: CommandInput, command: AdminCommand, what: string): string {
  const [id, ...extra] = input.args;
  if (!id || extra.length > 0) throw usageError(`expected exactly one ${what}`, command.usage);
  return id;
}

export function noPositionals(input: CommandInput, command: AdminCommand): void {
  if (input.args.length > 0) throw usageError(`unexpected argument "${input.args[0]}"`, command.usage);
}

/** Path segments are ids the API issued; encode anyway so an odd argument cannot change the path. */
export function segment(id: string): string {
  return encodeURIComponent(id);
}
