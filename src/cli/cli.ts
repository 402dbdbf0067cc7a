/**
 * The `tokengate` command: start | upstream | gateway | check-config | admin, with `--help` on
 * each and `--version`. Every failure ends here: one clear line on stderr and a non-zero exit
 * code, never a stack trace (unexpected errors print their message only; LOG_LEVEL=debug adds
 * the stack). Exit statuses: 0 success, 1 the operation failed, 2 wrong usage or configuration.
 */
import { CliError } from './cli-error.ts';
import { didYouMean } from './closest.ts';
import { COMMANDS, type CommandSpec } from './commands.ts';
import { aligned, EXIT_STATUSES, formatHelp } from './help.ts';
import type { CliIo } from './io.ts';
import { parseOptions } from './options.ts';
import { type CommandOutput, commandOutput } from './print-output.ts';
import { versionLine } from './version.ts';

function usage(): string {
  return [
    'usage: tokengate <command> [options]',
    '',
    ...aligned(COMMANDS.map((c): [string, string] => [c.name, c.summary])),
    '',
    'Options:',
    ...aligned([
      ['-h, --help', 'Show this help; `tokengate <command> --help` shows a command’s options and environment.'],
      ['-V, --version', 'Show the version and exit.'],
    ]),
    '',
    EXIT_STATUSES,
  ].join('\n');
}

function commandNamed(name: string): CommandSpec {
  const command = COMMANDS.find((c) => c.name === name);
  if (command) return command;
  const names = COMMANDS.map((c) => c.name);
  throw new CliError(`unknown command "${name}"${didYouMean(name, names)}\n\n${usage()}`, 2);
}

/**
 * Runs `tokengate ARGV` against `io` and resolves with its exit status. It neither reads nor
 * changes the process's environment, exit code or streams (src/cli/main.ts passes them in).
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const output = commandOutput(io.stdout, io.stderr);
  let status: number;
  try {
    status = await dispatch(argv, io, output);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`tokengate: ${message}\n`);
    if (!(error instanceof CliError) && io.env['LOG_LEVEL'] === 'debug' && error instanceof Error) {
      io.stderr.write(`${error.stack}\n`);
    }
    status = error instanceof CliError ? error.exitCode : 1;
  }
  // An exit status already set (the usage printed for a missing command) is kept.
  return (await output.written()) ? status : status || 1;
}

async function dispatch(argv: readonly string[], io: CliIo, output: CommandOutput): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    output.print(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V' || name === 'version') return printed(output, versionLine());
  // `tokengate help`, `tokengate help gateway`, `tokengate help admin client create`.
  if (name === 'help') {
    const [topic, ...rest] = args;
    if (topic === undefined) return printed(output, usage());
    return dispatch([topic, ...rest, '--help'], io, output);
  }
  if (name.startsWith('-')) throw new CliError(`unknown option "${name}"; the command comes first\n\n${usage()}`, 2);
  const command = commandNamed(name);
  if (command.ownParser) return command.run({ values: {}, positionals: [], args, io, output });
  const { values, positionals } = parseOptions(args, command.options, command.usage, command.allowPositionals);
  if (values['help']) return printed(output, formatHelp(command));
  return command.run({ values, positionals, args, io, output });
}

function printed(output: CommandOutput, text: string): number {
  output.print(text);
  return 0;
}
