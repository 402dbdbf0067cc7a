import { usageError } from '../cli-error.ts';
import { singleId } from './args.ts';
import { operationCommand } from './operation-command.ts';

/**
 * `client update CLIENT_ID --introspect|--no-introspect`: grants or withdraws the permission to
 * call POST /oauth/introspect (RFC 7662). Its own module: the other client commands change how a
 * client authenticates, this one what it may ask.
 */
export const clientUpdate = operationCommand({
  usage: 'client update CLIENT_ID --introspect|--no-introspect [--json]',
  operation: 'setClientIntrospect',
  arguments: { CLIENT_ID: 'the client' },
  options: {
    '--introspect': 'allow it to call the token introspection endpoint (POST /oauth/introspect)',
    '--no-introspect': 'no longer allow it',
  },
  request(input, command) {
    const id = singleId(input, command, 'client id');
    const on = Boolean(input.values.introspect);
    if (on === Boolean(input.values['no-introspect']))
      throw usageError('give one of --introspect or --no-introspect', command.usage);
    return { id, input: { allowed: on } };
  },
  text: (client) =>
    `client ${client.client_id}: ${
      client.introspect
        ? 'may call the token introspection endpoint'
        : 'may no longer call the token introspection endpoint'
    }`,
});
