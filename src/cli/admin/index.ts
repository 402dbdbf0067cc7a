import { parseArgs } from 'node:util';
import { CliError, usageError } from '../cli-error.ts';
import { closest } from '../closest.ts';
import type { CliStream } from '../io.ts';
import { optionMistake } from '../options.ts';
import { type AdminClient, type AdminTransport, createAdminClient } from '#admin/contract';
import { createAdminTransport } from './api-client.ts';
import { ADMIN_COMMANDS } from './commands.ts';
import { adminCommandHelp, adminNounHelp, adminOverview } from './help.ts';
import { findCommand } from './lookup.ts';
import { type AdminSettings, adminSettings } from './settings.ts';

export { ADMIN_COMMANDS } from './commands.ts';

export function adminUsage(): string {
  return adminOverview(ADMIN_COMMANDS);
}

/** `--help` after nothing, a noun, or a noun and verb. */
function adminHelp(positionals: readonly string[]): string {
  const [noun] = positionals;
  const found = findCommand(ADMIN_COMMANDS, positionals);
  if (found) return adminCommandHelp(found.command);
  if (noun !== undefined && ADMIN_COMMANDS.some((c) => c.noun === noun)) return adminNounHelp(noun, ADMIN_COMMANDS);
  return adminUsage();
}

/** The unknown command named, with the nearest noun or verb that exists. */
function unknownCommand(noun: string | undefined, verb: string | undefined): CliError {
  if (!noun) return new CliError(`missing admin command\n\n${adminUsage()}`, 2);
  const nouns = [...new Set(ADMIN_COMMANDS.map((c) => c.noun))];
  const verbs = ADMIN_COMMANDS.filter((c) => c.noun === noun).map((c) => c.verb);
  const near = nouns.includes(noun) ? closest(verb ?? '', verbs) : closest(noun, nouns);
  const hint = near === undefined ? '' : `; did you mean "${nouns.includes(noun) ? `${noun} ${near}` : near}"?`;
  const what = `unknown admin command "${[noun, verb].filter(Boolean).join(' ')}"${hint}`;
  return new CliError(`${what}\n\n${adminUsage()}`, 2);
}

/** Where an admin command runs; the process's own unless the caller (the CLI's `main`) says. */
export interface AdminPlace {
  readonly cwd: string;
  readonly stderr: CliStream;
}

/**
 * `tokengate admin …`: with --json, exactly one JSON value on stdout and nothing else;
 * otherwise readable lines. Failures throw CliError (the caller prints it on stderr).
 */
export async function runAdmin(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  out: (text: string) => void,
  place: AdminPlace = { cwd: process.cwd(), stderr: process.stderr },
): Promise<void> {
  const { values, positionals } = parseAdminArgs(argv);
  if (values.help) return out(adminHelp(positionals));
  const found = findCommand(ADMIN_COMMANDS, positionals);
  if (!found) throw unknownCommand(positionals[0], positionals[1]);
  const { command, args } = found;
  const api = lazyClient(() => adminSettings(env, place.cwd));
  const output = await command.run({ api, values, args, env, cwd: place.cwd, stderr: place.stderr });
  out(values.json ? JSON.stringify(output.json) : output.text);
}

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  plan: { type: 'string' },
  project: { type: 'string' },
  account: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  scopes: { type: 'string' },
  gnaf: { type: 'string' },
  now: { type: 'boolean' },
  set: { type: 'string' },
  clear: { type: 'boolean' },
  month: { type: 'string' },
  auth: { type: 'string' },
  jwks: { type: 'string' },
  'require-dpop': { type: 'boolean' },
  require: { type: 'boolean' },
  allow: { type: 'boolean' },
  introspect: { type: 'boolean' },
  'no-introspect': { type: 'boolean' },
  on: { type: 'boolean' },
  off: { type: 'boolean' },
  overlap: { type: 'string' },
} as const;

function parseAdminArgs(argv: readonly string[]) {
  try {
    return parseArgs({ args: withDashedValues(argv), allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    throw usageError(
      optionMistake(error, Object.keys(OPTIONS)),
      'tokengate admin <noun> <verb> [args] [--json] (see tokengate admin --help)',
    );
  }
}

/**
 * A jti is random base64url, so one in 64 starts with '-', and parseArgs takes it for an unknown
 * option (or, past its first letter, for a group of short options that a '-' inside turns into
 * an option terminator: `-Zq-2g` is read as `-Z -q -- -2 -g`). For a command whose value may
 * start with '-' (`token revoke`), every argument after the noun and verb that is not a known
 * option moves behind the `--` terminator, where parseArgs takes it as a positional; `--` given by
 * hand keeps working. Other commands still refuse an unknown option, so a mistyped `--nmae` is
 * named as such. Scanned by hand: parseArgs' own tokens split such an argument apart.
 */
function withDashedValues(argv: readonly string[]): string[] {
  const end = argv.indexOf('--');
  const head = end === -1 ? argv : argv.slice(0, end);
  const kept: string[] = [];
  const words: string[] = [];
  const values: string[] = [];
  for (let i = 0; i < head.length; i++) {
    const arg = head[i] as string;
    const option = knownOption(arg);
    if (option !== undefined) {
      kept.push(arg);
      if (option.type === 'string' && !arg.includes('=') && i + 1 < head.length) kept.push(head[++i] as string);
    } else if (words.length < 2 && !arg.startsWith('-')) {
      words.push(arg);
      kept.push(arg);
    } else {
      values.push(arg);
    }
  }
  const command = ADMIN_COMMANDS.find((c) => c.noun === words[0] && c.verb === words[1]);
  if (!command?.dashedValues || values.length === 0) return [...argv];
  return [...kept, '--', ...values, ...(end === -1 ? [] : argv.slice(end + 1))];
}

/** `--name`, `--name=value` or `-h`: one of OPTIONS, or undefined. */
function knownOption(arg: string): (typeof OPTIONS)[keyof typeof OPTIONS] | undefined {
  if (arg === '-h') return OPTIONS.help;
  if (!arg.startsWith('--')) return undefined;
  const name = arg.slice(2).split('=', 1)[0] as string;
  return Object.hasOwn(OPTIONS, name) ? OPTIONS[name as keyof typeof OPTIONS] : undefined;
}

/** Settings (URL, token) are resolved on the first request: `address import` may need none. */
function lazyClient(settings: () => Promise<AdminSettings>): AdminClient {
  let send: Promise<AdminTransport> | undefined;
  return createAdminClient(
    async (method, path, body) => {
      send ??= settings().then((resolved) => createAdminTransport(resolved));
      return (await send)(method, path, body);
    },
    (message) => new CliError(message),
  );
}
