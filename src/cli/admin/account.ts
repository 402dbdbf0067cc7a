import { PLANS } from '#common';
import { usageError } from '../cli-error.ts';
import { noPositionals, required, singleId, idFromArgument } from './args.ts';
import type { AdminCommand, CommandInput } from './command.ts';
import { only, operationCommand, toggleCommands } from './operation-command.ts';
import { requireTwoFactorCommand } from './second-factor.ts';
import { text } from './text.ts';
import { table } from './table.ts';

const ACCOUNT_ID = { ACCOUNT_ID: 'the account' };
const PLAN_OPTION = { '--plan PLAN': `one of ${PLANS.join(', ')}` };

/** The `--plan` value, or a usage error listing the plans. */
export function planOption(input: CommandInput, command: AdminCommand): string {
  const plan = required(input, command, 'plan');
  if (!(PLANS as readonly string[]).includes(plan))
    throw usageError(`--plan must be one of ${PLANS.join(', ')}`, command.usage);
  return plan;
}

const create = operationCommand({
  usage: `account create --name NAME --plan ${PLANS.join('|')} [--json]`,
  operation: 'createAccount',
  options: { '--name NAME': 'its name (1-100 characters)', ...PLAN_OPTION },
  request(input, command) {
    noPositionals(input, command);
    return { input: { name: required(input, command, 'name'), plan: planOption(input, command) } };
  },
  json: (account) => only(account, ['id', 'name', 'plan']),
  text: (a) => `created account ${a.id} (name: ${a.name}, plan: ${a.plan})`,
});

const plan = operationCommand({
  usage: `account plan ACCOUNT_ID --plan ${PLANS.join('|')} [--json]`,
  operation: 'setAccountPlan',
  arguments: ACCOUNT_ID,
  options: PLAN_OPTION,
  request: (input, command) => ({
    id: singleId(input, command, 'account id'),
    input: { plan: planOption(input, command) },
  }),
  json: (account) => only(account, ['id', 'plan']),
  text: (account) => `account ${account.id} is now on the ${account.plan} plan`,
});

const list = operationCommand({
  usage: 'account list [--json]',
  operation: 'listAccounts',
  text: (accounts) =>
    table(
      ['ID', 'NAME', 'PLAN', 'STATUS'],
      accounts.map((a) => [a.id, a.name, a.plan, a.enabled ? 'enabled' : 'disabled']),
    ),
});

const activity = operationCommand({
  usage: 'account activity ACCOUNT_ID [--json]',
  operation: 'accountActivity',
  arguments: ACCOUNT_ID,
  request: idFromArgument('account id'),
  text: (entries) =>
    table(
      ['AT', 'ACTOR', 'ACTION', 'TARGET', 'ADDRESS'],
      entries.map((e) => [e.at, e.actor, e.action, e.target, text(e.address)]),
    ),
});

export const accountCommands: readonly AdminCommand[] = [
  create,
  plan,
  ...toggleCommands({
    noun: 'account',
    id: ['ACCOUNT_ID', 'the account', 'account id', 'account'],
    disable: 'disableAccount',
    enable: 'enableAccount',
    disabledNote: ' (its clients get no tokens, their outstanding ones are revoked)',
  }),
  list,
  activity,
  requireTwoFactorCommand,
];
