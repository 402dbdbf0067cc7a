import { usageError } from '../cli-error.ts';
import { noPositionals, required, segment } from './args.ts';
import type { AdminCommand } from './command.ts';
import { asRow, pick, text } from './shape.ts';

const ROLES = ['owner', 'developer', 'viewer'] as const;

const invite: AdminCommand = {
  noun: 'user',
  verb: 'invite',
  usage: `user invite --account ACCOUNT_ID --email EMAIL --role ${ROLES.join('|')} [--json]`,
  async run(input) {
    noPositionals(input, invite);
    const account = required(input, invite, 'account');
    const email = required(input, invite, 'email');
    const role = required(input, invite, 'role');
    if (!(ROLES as readonly string[]).includes(role))
      throw usageError(`--role must be one of ${ROLES.join(', ')}`, invite.usage);
    const answer = await input.api.request('POST', `/accounts/${segment(account)}/invitations`, { email, role });
    const created = pick(asRow(answer), ['email', 'role', 'account_id', 'invite_url']);
    return {
      json: created,
      text: `invited ${text(created['email'])} as ${text(created['role'])} to account ${text(created['account_id'])}\n\n${text(created['invite_url'])}\n\nThe link is shown only now, works once and expires in 72 hours: pass it on to the person.`,
    };
  },
};

export const userCommands: readonly AdminCommand[] = [invite];
