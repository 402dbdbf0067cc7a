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
import { parseOptions } from './options.ts';
import { printOutput } from './print-output.ts';
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

async function main(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    printOutput(usage());
    if (name === undefined) process.exitCode = 2;
    return;
  }
  if (name === '--version' || name === '-V' || name === 'version') return printOutput(versionLine());
  // `tokengate help`, `tokengate help gateway`, `tokengate help admin client create`.
  if (name === 'help') {
    const [topic, ...rest] = args;
    if (topic === undefined) return printOutput(usage());
    return main([topic, ...rest, '--help']);
  }
  if (name.startsWith('-')) throw new CliError(`unknown option "${name}"; the command comes first\n\n${usage()}`, 2);
  const command = commandNamed(name);
  if (command.ownParser) return command.run({ values: {}, positionals: [], args });
  const { values, positionals } = parseOptions(args, command.options, command.usage, command.allowPositionals);
  if (values['help']) return printOutput(formatHelp(command));
  await command.run({ values, positionals, args });
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`tokengate: ${message}\n`);
  if (!(error instanceof CliError) && process.env['LOG_LEVEL'] === 'debug' && error instanceof Error) {
    process.stderr.write(`${error.stack}\n`);
  }
  process.exitCode = error instanceof CliError ? error.exitCode : 1;
}
