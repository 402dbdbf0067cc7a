import type { AdminTransport } from '#admin/contract';
import { fetchFailureCause } from '#common';
import { CliError } from '../cli-error.ts';
import type { AdminSettings } from './settings.ts';

const TIMEOUT_MS = 15_000;

/** Talks JSON to the admin API; every failure becomes a CliError with an operator-readable line. */
export function createAdminTransport(settings: AdminSettings, fetchImpl: typeof fetch = fetch): AdminTransport {
  return async (method, path, body) => {
    const url = `${settings.baseUrl}${path}`;
    let res: Response;
    try {
      res = await fetchImpl(url, {
        method,
        headers: {
          authorization: `Bearer ${settings.token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      if (fetchFailureCause(error) === 'bad port') throw badPort(settings.baseUrl);
      throw new CliError(
        `cannot reach the admin API at ${settings.baseUrl} (${reason(error)}); is the upstream running? (set ADMIN_URL or ADMIN_PORT)`,
      );
    }
    const payload = await readPayload(res);
    if (res.ok) return payload;
    throw new CliError(failureMessage(res.status, payload));
  };
}

async function readPayload(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`the admin API answered HTTP ${res.status} with a body that is not JSON`);
  }
}

function failureMessage(status: number, payload: unknown): string {
  const message =
    typeof payload === 'object' && payload !== null && 'message' in payload ? String(payload.message) : '';
  if (status === 401)
    return 'the admin API refused the admin token (HTTP 401): check ADMIN_TOKEN or $DATA_DIR/admin-token';
  return `admin API: ${message || 'request failed'} (HTTP ${status})`;
}

function reason(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${TIMEOUT_MS / 1000} s`;
  return fetchFailureCause(error) ?? (error instanceof Error ? error.message : String(error));
}

/**
 * fetch, like every browser, never connects to the ports of the Fetch standard's "bad port" list
 * (6000, 6665-6669, 10080 ...): an admin API there runs, but neither this CLI nor the portal in a
 * browser can reach it. A configuration mistake (exit 2), not an upstream that is down.
 */
function badPort(baseUrl: string): CliError {
  const port = new URL(baseUrl).port;
  return new CliError(
    `ADMIN_URL: port ${port} is one that fetch and browsers refuse to connect to (the Fetch standard's bad ports): run the admin API on another ADMIN_PORT`,
    2,
  );
}
