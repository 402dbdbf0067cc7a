import type { EmailRouteOptions } from './route.ts';

/**
 * Email route settings from the environment, checked at start-up:
 * `EMAIL_DNS_SERVERS` (comma-separated `ip` or `ip:port`; unset = the system's resolvers) and
 * `EMAIL_DNS_TIMEOUT_MS` (integer milliseconds, default 1500).
 */
export function emailRouteOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): EmailRouteOptions {
  const servers = (env.EMAIL_DNS_SERVERS ?? '')
    .split(',')
    .map((server) => server.trim())
    .filter((server) => server !== '');
  const rawTimeout = env.EMAIL_DNS_TIMEOUT_MS?.trim();
  if (rawTimeout !== undefined && rawTimeout !== '' && !/^[0-9]+$/.test(rawTimeout)) {
    throw new TypeError(`EMAIL_DNS_TIMEOUT_MS: must be an integer number of milliseconds, got "${rawTimeout}"`);
  }
  return {
    ...(servers.length > 0 ? { dnsServers: servers } : {}),
    ...(rawTimeout ? { dnsTimeoutMs: Number(rawTimeout) } : {}),
  };
}
