import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { usageError } from './cli-error.ts';
import { didYouMean } from './closest.ts';

/** One option of a command: parseArgs' definition plus what its help says. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** The value's placeholder in the help (`FILE`); string options only. */
  readonly value?: string;
  readonly help: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** `--help` and `-h`, which every command takes. */
export const HELP_OPTION: OptionSpecs = { help: { type: 'boolean', short: 'h', help: 'Show this help and exit.' } };

/**
 * Parses a command's arguments with `node:util` parseArgs (strict: an unknown option is an
 * error). A mistake is a usage error (exit 2) whose message names the closest valid option.
 */
export function parseOptions(
  args: readonly string[],
  options: OptionSpecs,
  usage: string,
  allowPositionals = false,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  const config: ParseArgsOptionsConfig = {};
  for (const [name, spec] of Object.entries(options))
    config[name] = spec.short === undefined ? { type: spec.type } : { type: spec.type, short: spec.short };
  try {
    const { values, positionals } = parseArgs({ args: [...args], options: config, strict: true, allowPositionals });
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (error) {
    throw usageError(optionMistake(error, Object.keys(options)), usage);
  }
}

/**
 * parseArgs' message, shortened to its first sentence, with the closest valid option for an
 * unknown one (`Unknown option '--confg'; did you mean --config?`).
 */
export function optionMistake(error: unknown, names: readonly string[]): string {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split(/\.\s/, 1)[0] ?? message;
  const code = (error as { code?: string }).code;
  const unknown = /^Unknown option '(-{1,2}[^'=]+)/.exec(first)?.[1];
  if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || unknown === undefined) return first;
  return `${first}${didYouMean(
    unknown,
    names.map((name) => `--${name}`),
  )}`;
}
