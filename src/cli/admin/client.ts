import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SCOPES } from '#common';
import { usageError } from '../cli-error.ts';
import { noPositionals, required, segment, singleId } from './args.ts';
import type { AdminCommand, CommandInput } from './command.ts';
import { asRow, asRows, pick, text } from './shape.ts';
import { fields, table } from './table.ts';

/** `scopes` is always printed as an array of strings, e.g. ["address","phone"]. */
const CLIENT = ['client_id', 'name', 'scopes', 'enabled'] as const;

const create: AdminCommand = {
  noun: 'client',
  verb: 'create',
  usage: `client create --project PROJECT_ID --name NAME --scopes ${SCOPES.join(',')} [--auth private_key_jwt --jwks FILE] [--require-dpop] [--json]`,
  async run(input) {
    noPositionals(input, create);
    const project = required(input, create, 'project');
    const name = required(input, create, 'name');
    const scopes = parseScopes(required(input, create, 'scopes'));
    const auth = input.values.auth ?? 'client_secret';
    if (auth !== 'client_secret' && auth !== 'private_key_jwt')
      throw usageError(
        `--auth: unknown method ${JSON.stringify(auth)}; choose client_secret or private_key_jwt`,
        create.usage,
      );
    if ((auth === 'private_key_jwt') !== (input.values.jwks !== undefined))
      throw usageError('--jwks FILE goes with --auth private_key_jwt, and only with it', create.usage);
    const dpop = input.values['require-dpop'] ? { require_dpop: true } : {};
    const body =
      auth === 'private_key_jwt'
        ? { name, scopes, auth, jwks: await readKeySet(input, create), ...dpop }
        : { name, scopes, ...dpop };
    const answer = asRow(await input.api.request('POST', `/projects/${segment(project)}/clients`, body));
    if (auth === 'private_key_jwt') {
      const client = pick(answer, [...CLIENT, 'auth']);
      return {
        json: client,
        text: `${fields(client)}\n\nThe client signs its assertions with its private keys: it has no secret.`,
      };
    }
    const client = pick(answer, ['client_id', 'client_secret', ...CLIENT.slice(1)]);
    return {
      json: client,
      text: `${fields(client)}\n\nThe client secret is shown only now: store it in a secrets store.`,
    };
  },
};

const keys: AdminCommand = {
  noun: 'client',
  verb: 'keys',
  usage: 'client keys CLIENT_ID --jwks FILE [--json]',
  async run(input) {
    const id = singleId(input, keys, 'client id');
    const jwks = await readKeySet(input, keys);
    const answer = asRow(await input.api.request('POST', `/clients/${segment(id)}/keys`, { jwks }));
    const client = pick(answer, ['client_id', 'auth', 'jwks']);
    const count = Array.isArray((client['jwks'] as { keys?: unknown } | undefined)?.keys)
      ? (client['jwks'] as { keys: unknown[] }).keys.length
      : 0;
    return { json: client, text: `client ${id}: key set replaced (${count} key${count === 1 ? '' : 's'})` };
  },
};

const dpop: AdminCommand = {
  noun: 'client',
  verb: 'dpop',
  usage: 'client dpop CLIENT_ID --require|--allow [--json]',
  async run(input) {
    const id = singleId(input, dpop, 'client id');
    const { require, allow } = input.values;
    if (Boolean(require) === Boolean(allow)) throw usageError('give one of --require or --allow', dpop.usage);
    const answer = pick(
      asRow(await input.api.request('POST', `/clients/${segment(id)}/dpop`, { required: Boolean(require) })),
      ['client_id', 'require_dpop'],
    );
    const note = answer['require_dpop']
      ? 'DPoP required: its token requests without a proof are refused'
      : 'DPoP allowed, not required: it may get Bearer tokens again';
    return { json: answer, text: `client ${id}: ${note}` };
  },
};

/** The JSON of `--jwks FILE`; the admin API checks that it is a public key set. */
async function readKeySet(input: CommandInput, command: AdminCommand): Promise<unknown> {
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

const list: AdminCommand = {
  noun: 'client',
  verb: 'list',
  usage: 'client list --project PROJECT_ID [--json]',
  async run(input) {
    noPositionals(input, list);
    const project = required(input, list, 'project');
    const clients = asRows(await input.api.request('GET', `/projects/${segment(project)}/clients`)).map((row) =>
      pick(row, CLIENT),
    );
    const rows = clients.map((c) => [
      text(c['client_id']),
      text(c['name']),
      text(c['scopes']),
      c['enabled'] ? 'enabled' : 'disabled',
    ]);
    return { json: clients, text: table(['CLIENT_ID', 'NAME', 'SCOPES', 'STATUS'], rows) };
  },
};

function toggle(verb: 'enable' | 'disable'): AdminCommand {
  const command: AdminCommand = {
    noun: 'client',
    verb,
    usage: `client ${verb} CLIENT_ID [--json]`,
    async run(input: CommandInput) {
      const id = singleId(input, command, 'client id');
      const answer = pick(asRow(await input.api.request('POST', `/clients/${segment(id)}/${verb}`)), [
        'client_id',
        'enabled',
      ]);
      const note = verb === 'disable' ? ' (its outstanding tokens are revoked)' : '';
      return { json: answer, text: `client ${id} ${verb}d${note}` };
    },
  };
  return command;
}

/** `address,phone` (spaces tolerated); unknown names are refused before any request. */
function parseScopes(raw: string): string[] {
  const scopes = raw.split(/[\s,]+/).filter(Boolean);
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (scopes.length === 0 || unknown.length > 0) {
    throw usageError(
      `--scopes: unknown scope ${JSON.stringify(unknown[0] ?? '')}; choose from ${SCOPES.join(', ')}`,
      create.usage,
    );
  }
  return [...new Set(scopes)];
}

export const clientCommands: readonly AdminCommand[] = [create, list, keys, dpop, toggle('disable'), toggle('enable')];
