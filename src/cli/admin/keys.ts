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
    ]);
    return { json: keys, text: table(['KID', 'STATUS', 'ALG', 'CREATED', 'REMOVE_AFTER'], rows) };
  },
};

const rotate: AdminCommand = {
  noun: 'keys',
  verb: 'rotate',
  usage: 'keys rotate [--json]',
  async run(input) {
    noPositionals(input, rotate);
    const answer = pick(asRow(await input.api.request('POST', '/keys/rotate')), ['kid']);
    return {
      json: answer,
      text: `rotated: ${text(answer['kid'])} now signs (the previous key stays published until its tokens expire)`,
    };
  },
};

export const keyCommands: readonly AdminCommand[] = [list, rotate];
