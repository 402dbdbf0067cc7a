import { noPositionals } from './args.ts';
import type { AdminCommand } from './command.ts';
import { asRow, asRows, pick, text } from './shape.ts';
import { table } from './table.ts';

const list: AdminCommand = {
  noun: 'keys',
  verb: 'list',
  usage: 'keys list [--json]',
  async run(input) {
    noPositionals(input, list);
    const keys = asRows(await input.api.request('GET', '/keys'));
    const rows = keys.map((k) => [
      text(k['kid']),
      text(k['status']),
      text(k['alg']),
      text(k['created_at']),
      text(k['remove_after']),
      text(k['promotable_at']),
    ]);
    return { json: keys, text: table(['KID', 'STATUS', 'ALG', 'CREATED', 'REMOVE_AFTER', 'SIGNS_FROM'], rows) };
  },
};

/**
 * Refused by the API (HTTP 409, the message names when it can run) while the next key has been
 * published for less than the key set's max-age plus a margin. `--now` is the emergency rotation for
 * a compromised key: the next key signs at once and gateways learn of it through the revocation feed.
 */
const rotate: AdminCommand = {
  noun: 'keys',
  verb: 'rotate',
  usage: 'keys rotate [--now] [--json]',
  async run(input) {
    noPositionals(input, rotate);
    const now = input.values.now === true;
    const answer = pick(asRow(await input.api.request('POST', '/keys/rotate', now ? { now: true } : undefined)), [
      'kid',
    ]);
    const kid = text(answer['kid']);
    return {
      json: answer,
      text: now
        ? `rotated (emergency): ${kid} now signs; gateways are told through the revocation feed (the previous key stays published until its tokens expire)`
        : `rotated: ${kid} now signs (the previous key stays published until its tokens expire)`,
    };
  },
};

export const keyCommands: readonly AdminCommand[] = [list, rotate];
