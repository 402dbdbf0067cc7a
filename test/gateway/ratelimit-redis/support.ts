import { randomUUID } from 'node:crypto';
import { type Harness, startHarness } from '../support/harness.ts';

/** A gateway of this folder's configuration on the given Redis, its keys under `prefix`. */
export function gatewayOn(
  redisUrl: string,
  prefix: string,
  failOpen = true,
  env: Record<string, string> = {},
): Promise<Harness> {
  return startHarness(import.meta.dirname, {
    env: { REDIS_URL: redisUrl, REDIS_PREFIX: prefix, FAIL_OPEN: String(failOpen), ...env },
  });
}

export const uniquePrefix = () => `tg-test-${randomUUID()}:`;

export async function bearer(h: Harness, client: string): Promise<string> {
  return h.kit.goodToken({ claims: { sub: client, client_id: client, project_id: `p-${client}` } });
}

/** `n` calls, `parallel` at a time, to a path; their statuses in order. */
export async function burst(h: Harness, token: string, n: number, parallel = 8, path = '/api/x'): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i += parallel) {
    const batch = Array.from({ length: Math.min(parallel, n - i) }, () =>
      h.fetch(path, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      }),
    );
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

export async function until(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
}
