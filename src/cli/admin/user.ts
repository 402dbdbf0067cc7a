import { usageError } from '../cli-error.ts';
import { noPositionals, required } from './args.ts';
import type { AdminCommand } from './command.ts';
import { only, operationCommand } from './operation-command.ts';
import { resetTwoFactorCommand } from './second-factor.ts';

const ROLES = ['owner', 'developer', 'viewer'] as const;

const invite = operationCommand({
  usage: `user invite --account ACCOUNT_ID --email EMAIL --role ${ROLES.join('|')} [--json]`,
  operation: 'invitePerson',
  options: {
    '--account ACCOUNT_ID': 'the account',
    '--email EMAIL': 'the person’s email (their sign-in)',
    '--role ROLE':
      'owner (everything, people too), developer (projects, clients, API keys, tokens) or viewer (read only)',
  },
  request(input, command) {
    noPositionals(input, command);
    const id = required(input, command, 'account');
    const email = required(input, command, 'email');
    const role = required(input, command, 'role');
    if (!(ROLES as readonly string[]).includes(role))
      throw usageError(`--role must be one of ${ROLES.join(', ')}`, command.usage);
    return { id, input: { email, role } };
  },
  json: (invited) => only(invited, ['email', 'role', 'account_id', 'invite_url']),
  text: (invited) =>
    `invited ${invited.email} as ${invited.role} to account ${invited.account_id}\n\n${invited.invite_url}\n\nThe link is shown only now, works once and expires in 72 hours: pass it on to the person.`,
});

export const userCommands: readonly AdminCommand[] = [invite, resetTwoFactorCommand];
