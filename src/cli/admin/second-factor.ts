import { usageError } from '../cli-error.ts';
import { noPositionals, required, singleId } from './args.ts';
import { only, operationCommand } from './operation-command.ts';

export const requireTwoFactorCommand = operationCommand({
  usage: 'account require-2fa ACCOUNT_ID --on|--off [--json]',
  operation: 'setAccountRequire2fa',
  arguments: { ACCOUNT_ID: 'the account' },
  options: {
    '--on': 'every member must have a second factor (those without one set it up at their next request)',
    '--off': 'a second factor is each member’s own choice again',
  },
  request(input, command) {
    const id = singleId(input, command, 'account id');
    const { on, off } = input.values;
    if (Boolean(on) === Boolean(off)) throw usageError('give one of --on or --off', command.usage);
    return { id, input: { require_2fa: Boolean(on) } };
  },
  json: (view) => only(view, ['id', 'require_2fa']),
  text: (view) =>
    view.require_2fa
      ? `account ${view.id} requires a second factor of every member`
      : `account ${view.id} no longer requires a second factor`,
});

export const resetTwoFactorCommand = operationCommand({
  usage: 'user reset-2fa --email EMAIL [--json]',
  operation: 'resetPersonFactors',
  options: { '--email EMAIL': 'the person’s email (their sign-in)' },
  request(input, command) {
    noPositionals(input, command);
    return { input: { email: required(input, command, 'email') } };
  },
  json: (view) => only(view, ['email', 'factors']),
  text: (view) =>
    `removed ${view.removed} second factor${view.removed === 1 ? '' : 's'} and the recovery codes of ${view.email}: they sign in with their password alone`,
});
