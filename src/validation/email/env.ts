import { ConfigError, milliseconds, readEnvironment, variable } from '#common';
import { z } from 'zod';
import type { EmailRouteOptions } from './route.ts';

/**
 * The email route's variables: `EMAIL_DNS_SERVERS` (comma-separated `ip` or `ip:port`; unset = the
 * system's resolvers) and `EMAIL_DNS_TIMEOUT_MS` (whole milliseconds, default 1500). Part of the
 * upstream's environment schema, so they are checked at start with every other variable.
 */
export const emailEnvironment = z.object({
  EMAIL_DNS_SERVERS: variable(
    z
      .string()
      .transform((value) =>
        value
          .split(',')
          .map((server) => server.trim())
          .filter((server) => server !== ''),
      )
      .optional(),
    { readBy: ['upstream'], defaultText: 'system resolvers', description: 'Resolvers of the email MX lookup (below).' },
  ),
  EMAIL_DNS_TIMEOUT_MS: variable(milliseconds(1, 30_000).optional(), {
    readBy: ['upstream'],
    defaultText: '`1500`',
    description: 'Deadline of the email MX lookup, in ms.',
  }),
});

/** The route's options from the environment; throws `ConfigError` naming a bad variable. */
export function emailRouteOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): EmailRouteOptions {
  const read = readEnvironment(emailEnvironment, env);
  if (!read.ok) throw new ConfigError(read.error);
  const { EMAIL_DNS_SERVERS: servers, EMAIL_DNS_TIMEOUT_MS: timeoutMs } = read.value;
  return {
    ...(servers !== undefined && servers.length > 0 ? { dnsServers: servers } : {}),
    ...(timeoutMs !== undefined ? { dnsTimeoutMs: timeoutMs } : {}),
  };
}
