import { parseArgs } from 'node:util';
import { CliError, usageError } from '../cli-error.ts';
import { type AdminApi, createAdminApi } from './api-client.ts';
import { addressCommands } from './address.ts';
import { apiKeyCommands } from './apikey.ts';
import { clientCommands } from './client.ts';
import type { AdminCommand } from './command.ts';
import { keyCommands } from './keys.ts';
import { projectCommands } from './project.ts';
import { type AdminSettings, adminSettings } from './settings.ts';
import { tokenCommands } from './token.ts';

export const ADMIN_COMMANDS: readonly AdminCommand[] = [...projectCommands, ...clientCommands, ...tokenCommands, ...keyCommands, ...apiKeyCommands, ...addressCommands];

export function adminUsage(): string {
  return ['tokengate admin <noun> <verb> [args] [--json]', '', ...ADMIN_COMMANDS.map((c) => `  ${c.usage}`)].join('\n');
}

/**
 * `tokengate admin …`: with --json, exactly one JSON value on stdout and nothing else;
 * otherwise readable lines. Failures throw CliError (the caller prints it on stderr).
 */
export async function runAdmin(argv: readonly string[], env: NodeJS.ProcessEnv, out: (text: string) => void): Promise<void> {
  const { values, positionals } = parseAdminArgs(argv);
  if (values.help) return out(adminUsage());
  const [noun, verb, ...args] = positionals;
  const command = ADMIN_COMMANDS.find((c) => c.noun === noun && c.verb === verb);
  if (!command) {
    const what = noun ? `unknown admin command "${[noun, verb].filter(Boolean).join(' ')}"` : 'missing admin command';
    throw new CliError(`${what}\n\n${adminUsage()}`, 2);
  }
  const api = lazyApi(() => adminSettings(env, process.cwd()));
  const output = await command.run({ api, values, args, env });
  out(values.json ? JSON.stringify(output.json) : output.text);
}

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  plan: { type: 'string' },
  project: { type: 'string' },
  scopes: { type: 'string' },
  gnaf: { type: 'string' },
} as const;

function parseAdminArgs(argv: readonly string[]) {
  try {
    return parseArgs({ args: withDashedValues(argv), allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    throw usageError((error as Error).message, 'tokengate admin <noun> <verb> [args] [--json] (see tokengate admin --help)');
  }
}

/**
 * A jti is random base64url, so one in 64 starts with '-', and parseArgs takes it for an unknown
 * option. For a command whose value may start with '-' (`token revoke`), every argument after the
 * noun and verb that is not a known option moves behind the `--` terminator, where parseArgs
 * takes it as a positional; `--` given by hand keeps working. Other commands still refuse an
 * unknown option, so a mistyped `--nmae` is named as such.
 */
function withDashedValues(argv: readonly string[]): string[] {
  const { tokens } = parseArgs({ args: [...argv], allowPositionals: true, strict: false, options: OPTIONS, tokens: true });
  const [noun, verb] = tokens.filter((token) => token.kind === 'positional');
  if (!noun || !verb || !ADMIN_COMMANDS.find((c) => c.noun === noun.value && c.verb === verb.value)?.dashedValues) return [...argv];
  // A short-option group (`-Xk3m`) yields one token per letter, all with the argument's index.
  const values = new Set(tokens.filter((token) => token.kind === 'option' && token.index > verb.index && !Object.hasOwn(OPTIONS, token.name)).map((token) => token.index));
  if (values.size === 0) return [...argv];
  const end = tokens.find((token) => token.kind === 'option-terminator')?.index ?? argv.length;
  const rest = argv.slice(0, end).filter((_, index) => !values.has(index));
  return [...rest, '--', ...argv.filter((_, index) => values.has(index)), ...argv.slice(end + 1)];
}

/** Settings (URL, token) are resolved on the first request: `address import` may need none. */
function lazyApi(settings: () => Promise<AdminSettings>): AdminApi {
  let api: Promise<AdminApi> | undefined;
  return {
    async request(method, path, body) {
      api ??= settings().then((resolved) => createAdminApi(resolved));
      return (await api).request(method, path, body);
    },
  };
}
