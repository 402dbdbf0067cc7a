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

/** Refuses any positional; undefined otherwise (a call without arguments). */
export function noPositionals(input: CommandInput, command: AdminCommand): undefined {
  if (input.args.length > 0) throw usageError(`unexpected argument "${input.args[0]}"`, command.usage);
  return undefined;
}

/** A request whose id is the value of `--flag` (`client list --project ID`), with no positional. */
export function idFromOption(flag: keyof AdminValues) {
  return (input: CommandInput, command: AdminCommand): { id: string } => {
    noPositionals(input, command);
    return { id: required(input, command, flag) };
  };
}

/** A request whose id is the one positional (`project delete ID`); `what` names it in a usage error. */
export function idFromArgument(what: string) {
  return (input: CommandInput, command: AdminCommand): { id: string } => ({ id: singleId(input, command, what) });
}
