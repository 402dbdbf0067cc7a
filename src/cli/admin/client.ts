import type { AnswerOf } from '#admin/contract';
import { SCOPES } from '#common';
import { usageError } from '../cli-error.ts';
import { noPositionals, required, singleId, idFromOption } from './args.ts';
import type { AdminCommand, CommandInput } from './command.ts';
import { only, operationCommand, toggleCommands } from './operation-command.ts';
import { readKeySet } from './key-set-file.ts';
import { fields, table } from './table.ts';
import { clientUpdate } from './client-update.ts';

const CLIENT_ID = { CLIENT_ID: 'the client' };

const create = operationCommand({
  usage: `client create --project PROJECT_ID --name NAME --scopes ${SCOPES.join(',')} [--auth private_key_jwt --jwks FILE] [--require-dpop] [--introspect] [--json]`,
  operation: 'createClient',
  options: {
    '--project PROJECT_ID': 'the project it belongs to',
    '--name NAME': 'its name (1-100 characters)',
    '--scopes LIST': `comma-separated, from ${SCOPES.join(', ')}`,
    '--auth METHOD': 'client_secret (default) or private_key_jwt',
    '--jwks FILE': 'with private_key_jwt: a JSON file holding the public JWK set {"keys": [...]}',
    '--require-dpop': 'refuse its token requests without a DPoP proof (every token it gets is key-bound)',
    '--introspect': 'allow it to call the token introspection endpoint (POST /oauth/introspect)',
  },
  async request(input, command) {
    noPositionals(input, command);
    const id = required(input, command, 'project');
    const name = required(input, command, 'name');
    const scopes = parseScopes(required(input, command, 'scopes'), command);
    const auth = authOption(input, command);
    const dpop = input.values['require-dpop'] ? { require_dpop: true } : {};
    const introspect = input.values.introspect ? { introspect: true } : {};
    if (auth === 'client_secret') return { id, input: { name, scopes, ...dpop, ...introspect } };
    return { id, input: { name, scopes, auth, jwks: await readKeySet(input, command), ...dpop, ...introspect } };
  },
  json: shownClient,
  text: (client) =>
    `${fields(shownClient(client))}\n\n${
      client.auth === 'private_key_jwt'
        ? 'The client signs its assertions with its private keys: it has no secret.'
        : 'The client secret is shown only now: store it in a secrets store.'
    }`,
});

/**
 * A new client as the operator contract prints it: a private_key_jwt client has no secret, so it
 * says how it signs; one that may introspect says so (`introspect: true`).
 */
function shownClient(client: AnswerOf<'createClient'>) {
  const shown =
    client.auth === 'private_key_jwt'
      ? only(client, ['client_id', 'name', 'scopes', 'enabled', 'auth'])
      : only(client, ['client_id', 'client_secret', 'name', 'scopes', 'enabled']);
  return client.introspect ? { ...shown, introspect: true as const } : shown;
}

/** `--auth`: client_secret (the default) or private_key_jwt, which alone takes `--jwks FILE`. */
function authOption(input: CommandInput, command: AdminCommand): 'client_secret' | 'private_key_jwt' {
  const auth = input.values.auth ?? 'client_secret';
  if (auth !== 'client_secret' && auth !== 'private_key_jwt')
    throw usageError(
      `--auth: unknown method ${JSON.stringify(auth)}; choose client_secret or private_key_jwt`,
      command.usage,
    );
  if ((auth === 'private_key_jwt') !== (input.values.jwks !== undefined))
    throw usageError('--jwks FILE goes with --auth private_key_jwt, and only with it', command.usage);
  return auth;
}

const keys = operationCommand({
  usage: 'client keys CLIENT_ID --jwks FILE [--json]',
  operation: 'setClientKeys',
  arguments: CLIENT_ID,
  options: { '--jwks FILE': 'a JSON file holding the new public JWK set {"keys": [...]}' },
  request: async (input, command) => ({
    id: singleId(input, command, 'client id'),
    input: { jwks: await readKeySet(input, command) },
  }),
  json: (client) => only(client, ['client_id', 'auth', 'jwks']),
  text: (client) => {
    const count = client.jwks?.keys.length ?? 0;
    return `client ${client.client_id}: key set replaced (${count} key${count === 1 ? '' : 's'})`;
  },
});

const dpop = operationCommand({
  usage: 'client dpop CLIENT_ID --require|--allow [--json]',
  operation: 'setClientDpop',
  arguments: CLIENT_ID,
  options: {
    '--require': 'refuse its token requests without a DPoP proof',
    '--allow': 'accept them again (Bearer tokens); a request with a proof still gets a bound token',
  },
  request(input, command) {
    const id = singleId(input, command, 'client id');
    const { require, allow } = input.values;
    if (Boolean(require) === Boolean(allow)) throw usageError('give one of --require or --allow', command.usage);
    return { id, input: { required: Boolean(require) } };
  },
  text: (client) =>
    `client ${client.client_id}: ${
      client.require_dpop
        ? 'DPoP required: its token requests without a proof are refused'
        : 'DPoP allowed, not required: it may get Bearer tokens again'
    }`,
});

const list = operationCommand({
  usage: 'client list --project PROJECT_ID [--json]',
  operation: 'listClients',
  options: { '--project PROJECT_ID': 'the project' },
  request: idFromOption('project'),
  /** `scopes` is always printed as an array of strings, e.g. ["address","phone"]. */
  json: (clients) => clients.map((c) => only(c, ['client_id', 'name', 'scopes', 'enabled'])),
  text: (clients) =>
    table(
      ['CLIENT_ID', 'NAME', 'SCOPES', 'STATUS'],
      clients.map((c) => [c.client_id, c.name, c.scopes.join(','), c.enabled ? 'enabled' : 'disabled']),
    ),
});

/** `address,phone` (spaces tolerated); unknown names are refused before any request. */
function parseScopes(raw: string, command: AdminCommand): string[] {
  const scopes = raw.split(/[\s,]+/).filter(Boolean);
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (scopes.length === 0 || unknown.length > 0) {
    throw usageError(
      `--scopes: unknown scope ${JSON.stringify(unknown[0] ?? '')}; choose from ${SCOPES.join(', ')}`,
      command.usage,
    );
  }
  return [...new Set(scopes)];
}

export const clientCommands: readonly AdminCommand[] = [
  create,
  list,
  keys,
  dpop,
  clientUpdate,
  ...toggleCommands({
    noun: 'client',
    id: ['CLIENT_ID', 'the client', 'client id', 'client'],
    disable: 'disableClient',
    enable: 'enableClient',
    disabledNote: ' (its outstanding tokens are revoked)',
  }),
];
