import { noPositionals, required, segment, singleId } from './args.ts';
import type { AdminCommand, CommandInput } from './command.ts';
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

function toggle(verb: 'enable' | 'disable'): AdminCommand {
  const command: AdminCommand = {
    noun: 'apikey',
    verb,
    usage: `apikey ${verb} KEY [--json]`,
    async run(input: CommandInput) {
      const key = singleId(input, command, 'key');
      const answer = pick(asRow(await input.api.request('POST', `/apikeys/${segment(key)}/${verb}`)), [
        'key',
        'enabled',
      ]);
      const note = verb === 'disable' ? ' (its calls are refused until it is enabled)' : '';
      return { json: answer, text: `API key ${key} ${verb}d${note}` };
    },
  };
  return command;
}

export const apiKeyCommands: readonly AdminCommand[] = [create, toggle('disable'), toggle('enable')];
