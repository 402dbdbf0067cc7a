import { aligned, EXIT_STATUSES } from '../help.ts';
import type { AdminCommand, AdminHelp } from './command.ts';
import { ADMIN_COMMANDS } from './commands.ts';

/**
 * The help of each admin command, keyed `noun verb`: a command carries its own (an operation's
 * summary is the contract's), so no command is without help and no help outlives its command.
 */
export const ADMIN_HELP: Readonly<Record<string, AdminHelp>> = Object.fromEntries(
  ADMIN_COMMANDS.map((c) => [`${c.noun} ${c.verb}`, c.help]),
);

const COMMON_OPTIONS: readonly (readonly [string, string])[] = [
  ['--json', 'print exactly one JSON value on stdout'],
  ['-h, --help', 'show this help'],
];

const ENVIRONMENT: readonly (readonly [string, string])[] = [
  ['ADMIN_URL', 'the admin API (default http://127.0.0.1:$ADMIN_PORT)'],
  ['ADMIN_PORT', 'the admin API port (default 3001)'],
  ['ADMIN_TOKEN', 'the admin token (default: the file $DATA_DIR/admin-token)'],
  ['DATA_DIR', 'where the upstream keeps its data (default ./data)'],
  ['ADDRESS_DATA_DIR', 'where address import writes, when not DATA_DIR (default DATA_DIR)'],
];

/** `tokengate admin --help`: every command with its usage and one line. */
export function adminOverview(commands: readonly AdminCommand[]): string {
  return [
    'usage: tokengate admin <noun> <verb> [args] [--json]',
    '',
    'Commands (tokengate admin <noun> <verb> --help for one):',
    ...commands.flatMap((c) => [`  ${c.usage}`, `      ${c.help.summary}`]),
    '',
    'Environment:',
    ...aligned(ENVIRONMENT),
    '',
    EXIT_STATUSES,
  ].join('\n');
}

/** `tokengate admin client --help`: the verbs of one noun. */
export function adminNounHelp(noun: string, commands: readonly AdminCommand[]): string {
  const verbs = commands.filter((c) => c.noun === noun);
  return [
    `usage: tokengate admin ${noun} <verb> [args] [--json]`,
    '',
    ...aligned(verbs.map((c): [string, string] => [c.verb, c.help.summary])),
  ].join('\n');
}

/** `tokengate admin client create --help`: its usage, arguments, options and environment. */
export function adminCommandHelp(command: AdminCommand): string {
  const help = command.help;
  const parts = [`usage: tokengate admin ${command.usage}`, '', help.summary];
  const args = Object.entries(help.arguments ?? {});
  if (args.length > 0) parts.push('', 'Arguments:', ...aligned(args));
  parts.push('', 'Options:', ...aligned([...Object.entries(help.options ?? {}), ...COMMON_OPTIONS]));
  parts.push('', 'Environment:', ...aligned(ENVIRONMENT), '', EXIT_STATUSES);
  return parts.join('\n');
}
