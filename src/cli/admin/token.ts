import { usageError } from '../cli-error.ts';
import type { AdminCommand } from './command.ts';
import { operationCommand } from './operation-command.ts';

const revoke = operationCommand({
  usage: 'token revoke JWT_OR_JTI [--json]',
  operation: 'revokeToken',
  arguments: { JWT_OR_JTI: 'the token itself, or its jti (may start with "-")' },
  dashedValues: true,
  request(input, command) {
    const [token, ...extra] = input.args;
    if (!token || extra.length > 0) throw usageError('expected exactly one token (a JWT or its jti)', command.usage);
    return { input: { token } };
  },
  text: () => 'token revoked',
});

export const tokenCommands: readonly AdminCommand[] = [revoke];
