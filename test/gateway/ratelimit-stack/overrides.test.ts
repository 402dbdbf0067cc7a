import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig, type RunningGateway, startGateway } from '#gateway';
import { runCli } from '#test/stack.ts';
import { clientCredentialsToken, startTestUpstream, type TestUpstream } from '../../upstream/upstream-fixture.ts';
import { createLogSink } from '../support/log-sink.ts';

const ISSUER = 'http://tokengate.test';
let upstream: TestUpstream;
let gateways: RunningGateway[];
let projectId: string;
let token: string;
let apiKey: { key: string; secret: string };

beforeAll(async () => {
  upstream = await startTestUpstream({
    env: { PUBLIC_URL: ISSUER },
    routes: [
      { path: '/api/ping', scope: 'phone', errorExtra: {}, handle: () => ({ status: 200, body: { ok: true } }) },
    ],
  });
  const env = {
    UPSTREAM_URL: upstream.upstream.url,
    ISSUER,
    FEED_TOKEN: upstream.upstream.feedToken.value,
    REDIS_URL: 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `tg-test-${randomUUID()}:`,
  };
  const config = loadGatewayConfig(join(import.meta.dirname, 'gateway.yaml'), env);
  gateways = await Promise.all(
    [0, 1].map(() => startGateway(config, { log: createLogSink('warn').log, env, watch: false })),
  );
  await Promise.all(gateways.map((g) => g.ready()));
  const project = (await upstream.admin('POST', '/projects', { name: 'limited', plan: 'business' })).body as {
    id: string;
  };
  projectId = project.id;
  const client = (await upstream.admin('POST', `/projects/${projectId}/clients`, { name: 'c', scopes: ['phone'] }))
    .body as { client_id: string; client_secret: string };
  token = await clientCredentialsToken(upstream.upstream.url, client.client_id, client.client_secret);
  apiKey = (await upstream.admin('POST', `/projects/${projectId}/apikeys`)).body as { key: string; secret: string };
});
afterAll(async () => {
  await Promise.all(gateways.map((g) => g.close()));
  await upstream.destroy();
});

const bearerCall = (g: RunningGateway) => fetch(`${g.url}/api/ping`, { headers: { authorization: `Bearer ${token}` } });
const keyCall = (g: RunningGateway) => fetch(`${g.url}/api/ping?key=${apiKey.key}&secret=${apiKey.secret}`);
const policyAt = async (g: RunningGateway) => {
  const res = await bearerCall(g);
  await res.arrayBuffer();
  return res.headers.get('ratelimit-policy');
};

describe('per-project overrides and usage, end to end', () => {
  it('applies an override set through the admin API at every gateway within 1 s', async () => {
    // The project is new: each gateway holds it to the default plan until its feed names it.
    for (const g of gateways) await until(async () => (await policyAt(g)) === '"client";q=100;w=60');
    const set = await upstream.admin('POST', `/projects/${projectId}/limits`, {
      override: {
        groups: { api: { client: { requests: 50, windowSec: 60 }, project: { requests: 5, windowSec: 3600 } } },
      },
    });
    expect(set.status).toBe(200);
    const started = performance.now();
    const seen = await Promise.all(
      gateways.map(async (g) => {
        while ((await policyAt(g)) !== '"client";q=50;w=60, "project";q=5;w=3600') {
          if (performance.now() - started > 3_000) return Number.POSITIVE_INFINITY;
          await new Promise((r) => setTimeout(r, 20));
        }
        return performance.now() - started;
      }),
    );
    for (const ms of seen) expect(ms).toBeLessThan(1_000);
  });

  it("counts key/secret calls against the same project's limit as bearer calls", async () => {
    // The project limit (5 an hour) is shared: earlier calls above used some of it.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await (i % 2 === 0
        ? keyCall(gateways[0] as RunningGateway)
        : bearerCall(gateways[1] as RunningGateway));
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses.at(-1)).toBe(429);
    const keyed = await keyCall(gateways[1] as RunningGateway);
    expect(keyed.status).toBe(429);
    expect(keyed.headers.get('ratelimit')).toMatch(/^"project";r=0;t=\d+$/);
  });

  it("answers a disabled key's calls 1001 through the gateway without charging its project, and charges it again once enabled", async () => {
    // The project's limit is spent (above): while the key counts against it, its calls get 429.
    const keyAnswer = async (g: RunningGateway) => {
      const res = await keyCall(g);
      return `${res.status} ${((await res.json()) as { error_code?: string }).error_code}`;
    };
    expect((await upstream.admin('POST', `/apikeys/${apiKey.key}/disable`)).status).toBe(200);
    for (const g of gateways) await until(async () => (await keyAnswer(g)) === '401 1001');
    expect((await upstream.admin('POST', `/apikeys/${apiKey.key}/enable`)).status).toBe(200);
    for (const g of gateways) await until(async () => (await keyAnswer(g)) === '429 1045');
  });

  it('reports usage per day to the admin API, with the quota in force', async () => {
    await upstream.admin('POST', `/projects/${projectId}/limits`, { override: { monthlyQuota: 1_000 } });
    // A gateway reports the quota it enforces with its counts: once it names the quota in its answers.
    await until(async () => (await policyAt(gateways[0] as RunningGateway))?.includes('"quota";q=1000') === true);
    await (await bearerCall(gateways[0] as RunningGateway)).arrayBuffer();
    const today = new Date().toISOString().slice(0, 10);
    let usage: { month: string; calls: number; quota: number | null; days: Array<{ day: string; calls: number }> };
    // The gateways report their counts in the background: wait for the reports of every call so far.
    const deadline = Date.now() + 5_000;
    do {
      usage = (await upstream.admin('GET', `/projects/${projectId}/usage`)).body as typeof usage;
      if (usage.quota === 1_000 && usage.calls >= 7) break;
      await new Promise((r) => setTimeout(r, 20));
    } while (Date.now() < deadline);
    expect(usage.month).toBe(today.slice(0, 7));
    expect(usage.quota).toBe(1_000);
    expect(usage.calls).toBeGreaterThanOrEqual(7);
    expect(usage.days.at(-1)).toEqual({ day: today, calls: usage.calls - sumBefore(usage.days, today) });
    expect(usage.days).toHaveLength(Number(today.slice(8, 10)));
  });

  it('shows and clears the override with the CLI', async () => {
    const env = { ADMIN_URL: upstream.upstream.adminUrl, ADMIN_TOKEN: upstream.adminToken };
    const shown = await runCli(['admin', 'project', 'limits', projectId, '--json'], env);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual({
      project_id: projectId,
      plan: 'business',
      override: { monthlyQuota: 1000 },
    });
    const set = await runCli(['admin', 'project', 'limits', projectId, '--set', '{"monthlyQuota":50}', '--json'], env);
    expect(JSON.parse(set.stdout).override).toEqual({ monthlyQuota: 50 });
    const cleared = await runCli(['admin', 'project', 'limits', projectId, '--clear', '--json'], env);
    expect(JSON.parse(cleared.stdout).override).toBeNull();
    const bad = await runCli(['admin', 'project', 'limits', projectId, '--set', '{"monthlyQuota":0}'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/monthlyQuota/);
    const usage = await runCli(['admin', 'project', 'usage', projectId, '--json'], env);
    expect(JSON.parse(usage.stdout)).toMatchObject({ project_id: projectId, quota: 1000 });
  }, 60_000);
});

describe('policy changes at two gateways', () => {
  /** Milliseconds until `seen` holds at each gateway (checked every 20 ms; Infinity past 3 s). */
  const timesUntil = (seen: (g: RunningGateway) => Promise<boolean>) => {
    const started = performance.now();
    return Promise.all(
      gateways.map(async (g) => {
        while (!(await seen(g))) {
          if (performance.now() - started > 3_000) return Number.POSITIVE_INFINITY;
          await new Promise((r) => setTimeout(r, 20));
        }
        return performance.now() - started;
      }),
    );
  };
  const keyPolicy = async (g: RunningGateway, key: { key: string; secret: string }) => {
    const res = await fetch(`${g.url}/api/ping?key=${key.key}&secret=${key.secret}`);
    await res.arrayBuffer();
    return res.headers.get('ratelimit-policy');
  };

  it("carries an account's plan change, a key's disable and a project's deletion to both within 1 s", async () => {
    const project = (await upstream.admin('POST', '/projects', { name: 'moving', plan: 'business' })).body as {
      id: string;
      account_id: string;
    };
    const newKey = async () =>
      (await upstream.admin('POST', `/projects/${project.id}/apikeys`)).body as { key: string; secret: string };
    const k1 = await newKey();
    const k2 = await newKey();
    for (const g of gateways) await until(async () => (await keyPolicy(g, k2)) === '"client";q=100;w=60');

    expect((await upstream.admin('POST', `/accounts/${project.account_id}/plan`, { plan: 'enterprise' })).status).toBe(
      200,
    );
    const plan = await timesUntil(async (g) => (await keyPolicy(g, k1)) === '"client";q=300;w=60');
    expect((await upstream.admin('POST', `/apikeys/${k2.key}/disable`)).status).toBe(200);
    // A key the feed no longer names counts against no project: the default plan (free) has no limits here.
    const disable = await timesUntil(async (g) => (await keyPolicy(g, k2)) === null);
    expect(await keyPolicy(gateways[0] as RunningGateway, k1)).toBe('"client";q=300;w=60');
    expect((await upstream.admin('DELETE', `/projects/${project.id}`)).status).toBe(200);
    const deletion = await timesUntil(async (g) => (await keyPolicy(g, k1)) === null);
    for (const ms of [...plan, ...disable, ...deletion]) expect(ms).toBeLessThan(1_000);
  });
});

async function until(check: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

function sumBefore(days: Array<{ day: string; calls: number }>, today: string): number {
  return days.filter((d) => d.day < today).reduce((s, d) => s + d.calls, 0);
}
