import { idFromOption } from './args.ts';
import type { AdminCommand } from './command.ts';
import { operationCommand, toggleCommands } from './operation-command.ts';
import { fields } from './table.ts';

const create = operationCommand({
  usage: 'apikey create --project PROJECT_ID [--json]',
  operation: 'createApiKey',
  options: { '--project PROJECT_ID': 'the project' },
  request: idFromOption('project'),
  text: (created) => `${fields(created)}\n\nThe secret is shown only now: store it in a secrets store.`,
});

export const apiKeyCommands: readonly AdminCommand[] = [
  create,
  ...toggleCommands({
    noun: 'apikey',
    id: ['KEY', 'the API key (key_…)', 'key', 'API key'],
    disable: 'disableApiKey',
    enable: 'enableApiKey',
    disabledNote: ' (its calls are refused until it is enabled)',
  }),
];
