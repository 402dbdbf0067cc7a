import { PLANS } from '#common';
import { usageError } from '../cli-error.ts';
import { noPositionals, required, segment, singleId } from './args.ts';
import type { AdminCommand, CommandInput } from './command.ts';
import { asRow, asRows, pick, text } from './shape.ts';
import { table } from './table.ts';

const ACCOUNT = ['id', 'name', 'plan'] as const;

/** The `--plan` value, or a usage error listing the plans. */
export function planOption(input: CommandInput, command: AdminCommand): string {
  const plan = required(input, command, 'plan');
  if (!(PLANS as readonly string[]).includes(plan))
    throw usageError(`--plan must be one of ${PLANS.join(', ')}`, command.usage);
  return plan;
}

const create: AdminCommand = {
  noun: 'account',
  verb: 'create',
  usage: `account create --name NAME --plan ${PLANS.join('|')} [--json]`,
  async run(input) {
    noPositionals(input, create);
    const name = required(input, create, 'name');
    const plan = planOption(input, create);
    const account = pick(asRow(await input.api.request('POST', '/accounts', { name, plan })), ACCOUNT);
    return {
      json: account,
      text: `created account ${text(account['id'])} (name: ${text(account['name'])}, plan: ${text(account['plan'])})`,
    };
  },
};

const plan: AdminCommand = {
  noun: 'account',
  verb: 'plan',
  usage: `account plan ACCOUNT_ID --plan ${PLANS.join('|')} [--json]`,
  async run(input) {
    const id = singleId(input, plan, 'account id');
    const value = planOption(input, plan);
    const answer = pick(asRow(await input.api.request('POST', `/accounts/${segment(id)}/plan`, { plan: value })), [
      'id',
      'plan',
    ]);
    return { json: answer, text: `account ${id} is now on the ${text(answer['plan'])} plan` };
  },
};

function toggle(verb: 'enable' | 'disable'): AdminCommand {
  const command: AdminCommand = {
    noun: 'account',
    verb,
    usage: `account ${verb} ACCOUNT_ID [--json]`,
    async run(input) {
      const id = singleId(input, command, 'account id');
      const answer = pick(asRow(await input.api.request('POST', `/accounts/${segment(id)}/${verb}`)), [
        'id',
        'enabled',
      ]);
      const note = verb === 'disable' ? ' (its clients get no tokens, their outstanding ones are revoked)' : '';
      return { json: answer, text: `account ${id} ${verb}d${note}` };
    },
  };
  return command;
}

const list: AdminCommand = {
  noun: 'account',
  verb: 'list',
  usage: 'account list [--json]',
  async run(input) {
    noPositionals(input, list);
    const accounts = asRows(await input.api.request('GET', '/accounts')).map((row) =>
      pick(row, [...ACCOUNT, 'enabled']),
    );
    const rows = accounts.map((a) => [
      text(a['id']),
      text(a['name']),
      text(a['plan']),
      a['enabled'] ? 'enabled' : 'disabled',
    ]);
    return { json: accounts, text: table(['ID', 'NAME', 'PLAN', 'STATUS'], rows) };
  },
};

const ACTIVITY = ['at', 'actor', 'action', 'target', 'address'] as const;

const activity: AdminCommand = {
  noun: 'account',
  verb: 'activity',
  usage: 'account activity ACCOUNT_ID [--json]',
  async run(input) {
    const id = singleId(input, activity, 'account id');
    const entries = asRows(await input.api.request('GET', `/accounts/${segment(id)}/activity`)).map((row) =>
      pick(row, ACTIVITY),
    );
    const rows = entries.map((e) => [
      text(e['at']),
      text(e['actor']),
      text(e['action']),
      text(e['target']),
      text(e['address']),
    ]);
    return { json: entries, text: table(['AT', 'ACTOR', 'ACTION', 'TARGET', 'ADDRESS'], rows) };
  },
};

export const accountCommands: readonly AdminCommand[] = [
  create,
  plan,
  toggle('disable'),
  toggle('enable'),
  list,
  activity,
];
