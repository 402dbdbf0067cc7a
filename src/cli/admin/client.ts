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
  usage: `client create --project PROJECT_ID --name NAME --scopes ${SCOPES.join(',')} [--json]`,
  async run(input) {
    noPositionals(input, create);
    const project = required(input, create, 'project');
    const name = required(input, create, 'name');
    const scopes = parseScopes(required(input, create, 'scopes'));
    const answer = await input.api.request('POST', `/projects/${segment(project)}/clients`, { name, scopes });
    const client = pick(asRow(answer), ['client_id', 'client_secret', ...CLIENT.slice(1)]);
    return {
      json: client,
      text: `${fields(client)}\n\nThe client secret is shown only now: store it in a secrets store.`,
    };
  },
};

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

export const clientCommands: readonly AdminCommand[] = [create, list, toggle('disable'), toggle('enable')];
