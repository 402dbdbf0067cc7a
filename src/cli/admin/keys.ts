import { noPositionals } from './args.ts';
import type { AdminCommand } from './command.ts';
import { operationCommand } from './operation-command.ts';
import { text } from './text.ts';
import { table } from './table.ts';

const list = operationCommand({
  usage: 'keys list [--json]',
  operation: 'listKeys',
  text: (keys) =>
    table(
      ['KID', 'STATUS', 'ALG', 'CREATED', 'REMOVE_AFTER', 'SIGNS_FROM'],
      keys.map((k) => [k.kid, k.status, k.alg, k.created_at, text(k.remove_after), text(k.promotable_at)]),
    ),
});

/**
 * Refused by the API (HTTP 409, the message names when it can run) while the next key has been
 * published for less than the key set's max-age plus a margin. `--now` is the emergency rotation for
 * a compromised key: the next key signs at once and gateways learn of it through the revocation feed.
 */
const rotate = operationCommand({
  usage: 'keys rotate [--now] [--json]',
  operation: 'rotateKeys',
  options: {
    '--now':
      'the emergency rotation (a compromised key): the next key signs at once; gateways learn of it through the revocation feed',
  },
  request(input, command) {
    noPositionals(input, command);
    return input.values.now === true ? { input: { now: true } } : {};
  },
  text: ({ kid }, input) =>
    input.values.now === true
      ? `rotated (emergency): ${kid} now signs; gateways are told through the revocation feed (the previous key stays published until its tokens expire)`
      : `rotated: ${kid} now signs (the previous key stays published until its tokens expire)`,
});

export const keyCommands: readonly AdminCommand[] = [list, rotate];
