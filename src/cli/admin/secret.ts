import { singleId } from './args.ts';
import type { AdminCommand, CommandInput } from './command.ts';
import { only, operationCommand } from './operation-command.ts';
import { fields } from './table.ts';
import { text } from './text.ts';

const OVERLAP_OPTION = {
  '--overlap DURATION':
    'how long the previous secret keeps working: 24h (default), 90m, 1h30m, 45s, 7d …, at most 30d; 0 stops it now',
};

/** The call's input: `{overlap}` when `--overlap` is given (the API checks it and applies the default). */
const overlapInput = (input: CommandInput) =>
  input.values.overlap === undefined ? {} : { input: { overlap: input.values.overlap } };

/** What the readable output says of the previous secret. */
const previousNote = (until: string | null) =>
  until === null
    ? 'The previous secret no longer works.'
    : `The previous secret keeps working until ${until}; \`client secret retire\` ends it sooner.`;

const show = operationCommand({
  usage: 'client show CLIENT_ID [--json]',
  operation: 'getClient',
  arguments: { CLIENT_ID: 'the client' },
  request: (input, command) => ({ id: singleId(input, command, 'client id') }),
  text: (client) =>
    fields({
      client_id: client.client_id,
      name: client.name,
      scopes: client.scopes.join(','),
      enabled: String(client.enabled),
      auth: client.auth,
      require_dpop: String(client.require_dpop),
      previous_secret_valid_until: text(client.previous_valid_until),
    }),
});

const rotateClient = operationCommand({
  usage: 'client secret rotate CLIENT_ID [--overlap DURATION] [--json]',
  operation: 'rotateClientSecret',
  arguments: { CLIENT_ID: 'the client' },
  options: OVERLAP_OPTION,
  request: (input, command) => ({ id: singleId(input, command, 'client id'), ...overlapInput(input) }),
  json: (rotated) => only(rotated, ['client_id', 'client_secret', 'previous_valid_until']),
  text: (rotated) =>
    `${fields({ client_id: rotated.client_id, client_secret: rotated.client_secret })}\n\n` +
    `The new secret is shown only now: store it in a secrets store. ${previousNote(rotated.previous_valid_until)}`,
});

const retireClient = operationCommand({
  usage: 'client secret retire CLIENT_ID [--json]',
  operation: 'retireClientSecret',
  arguments: { CLIENT_ID: 'the client' },
  request: (input, command) => ({ id: singleId(input, command, 'client id') }),
  text: (retired) => `client ${retired.client_id}: only its current secret works now`,
});

const rotateApiKey = operationCommand({
  usage: 'apikey secret rotate KEY [--overlap DURATION] [--json]',
  operation: 'rotateApiKeySecret',
  arguments: { KEY: 'the API key (key_…)' },
  options: OVERLAP_OPTION,
  request: (input, command) => ({ id: singleId(input, command, 'key'), ...overlapInput(input) }),
  json: (rotated) => only(rotated, ['key', 'secret', 'previous_valid_until']),
  text: (rotated) =>
    `${fields({ key: rotated.key, secret: rotated.secret })}\n\n` +
    `The new secret is shown only now: store it in a secrets store. ${
      rotated.previous_valid_until === null
        ? 'The previous secret no longer works.'
        : `The previous secret keeps working until ${rotated.previous_valid_until}.`
    }`,
});

export const clientSecretCommands: readonly AdminCommand[] = [show, rotateClient, retireClient];
export const apiKeySecretCommands: readonly AdminCommand[] = [rotateApiKey];
