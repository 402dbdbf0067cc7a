import { noPositionals, required, segment } from './args.ts';
import type { AdminCommand } from './command.ts';
import { asRow, pick } from './shape.ts';
import { fields } from './table.ts';

const create: AdminCommand = {
  noun: 'apikey',
  verb: 'create',
  usage: 'apikey create --project PROJECT_ID [--json]',
  async run(input) {
    noPositionals(input, create);
    const project = required(input, create, 'project');
    const answer = pick(asRow(await input.api.request('POST', `/projects/${segment(project)}/apikeys`)), [
      'key',
      'secret',
    ]);
    return { json: answer, text: `${fields(answer)}\n\nThe secret is shown only now: store it in a secrets store.` };
  },
};

export const apiKeyCommands: readonly AdminCommand[] = [create];
