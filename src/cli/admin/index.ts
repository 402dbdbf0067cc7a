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

function parseAdminArgs(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        name: { type: 'string' },
        plan: { type: 'string' },
        project: { type: 'string' },
        scopes: { type: 'string' },
        gnaf: { type: 'string' },
      },
    });
  } catch (error) {
    throw usageError((error as Error).message, 'tokengate admin <noun> <verb> [args] [--json] (see tokengate admin --help)');
  }
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
