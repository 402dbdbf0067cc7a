import { usageError } from '../cli-error.ts';
import type { AdminCommand } from './command.ts';
import { asRow, pick } from './shape.ts';

const revoke: AdminCommand = {
  noun: 'token',
  verb: 'revoke',
  usage: 'token revoke JWT_OR_JTI [--json]',
  dashedValues: true,
  async run(input) {
    const [token, ...extra] = input.args;
    if (!token || extra.length > 0) throw usageError('expected exactly one token (a JWT or its jti)', revoke.usage);
    const answer = pick(asRow(await input.api.request('POST', '/tokens/revoke', { token })), ['revoked']);
    return { json: answer, text: 'token revoked' };
  },
};

export const tokenCommands: readonly AdminCommand[] = [revoke];
