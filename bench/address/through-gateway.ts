import { startStack } from '#test/stack.ts';
import { type Percentiles, percentiles } from './query-mix.ts';

/**
 * Autocomplete through the local stack (gateway and upstream processes, as `npm run gateway`
 * and `npm run upstream` start them) serving the address data set under `addressDataDir`, at
 * low load: one client, one call at a time, keep-alive, a valid bearer token. Each call's wall
 * time from request to the whole body, as the client sees it.
 */
export async function throughGateway(addressDataDir: string, queries: readonly string[]): Promise<Percentiles> {
  const stack = await startStack({ env: { ADDRESS_DATA_DIR: addressDataDir, LOG_LEVEL: 'warn' } });
  try {
    const project = await stack.adminJson<{ id: string }>([
      'project',
      'create',
      '--name',
      'bench',
      '--plan',
      'business',
    ]);
    const client = await stack.adminJson<{ client_id: string; client_secret: string }>([
      'client',
      'create',
      '--project',
      project.id,
      '--name',
      'bench',
      '--scopes',
      'address',
    ]);
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
      scope: 'address',
    });
    const token = (
      (await (await fetch(`${stack.gatewayUrl}/oauth/token`, { method: 'POST', body: form })).json()) as {
        access_token: string;
      }
    ).access_token;
    const headers = { authorization: `Bearer ${token}` };
    const call = async (q: string): Promise<number> => {
      const started = performance.now();
      const res = await fetch(`${stack.gatewayUrl}/api/au/address/autocomplete?${new URLSearchParams({ q })}`, {
        headers,
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`autocomplete through the gateway answered ${res.status}`);
      return performance.now() - started;
    };
    for (const q of queries.slice(0, 200)) await call(q);
    const times: number[] = [];
    for (const q of queries) times.push(await call(q));
    return percentiles(times);
  } finally {
    await stack.destroy();
  }
}
