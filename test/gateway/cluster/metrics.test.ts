import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '#common';
import { freePort } from '#test/stack.ts';
import { bearer, createTokenKit, type TokenKit } from '#test/tokens.ts';
import { type ClusterFixture, startClusterFixture } from './fixture.ts';
import { type GatewayProcess, type LogLine, startGatewayProcess } from './gateway-process.ts';

const CONFIG = join(import.meta.dirname, 'metrics.yaml');
const REQUESTS = 'tokengate_gateway_requests_total{route="/api/*",status="200",error_code=""}';
const VERIFIED = 'tokengate_gateway_verification_seconds_count';

let fx: ClusterFixture;
let kit: TokenKit;
let run: GatewayProcess | undefined;

beforeAll(async () => {
  fx = await startClusterFixture();
  kit = await createTokenKit(systemClock);
  fx.jwks.setKeys([kit.key]);
});
afterAll(() => fx.close());
afterEach(() => {
  run?.child.kill('SIGKILL');
  run = undefined;
});

const listening = (line: LogLine) => line['msg'] === 'gateway listening';

/** A GET on a connection of its own (so the cluster hands each to the next worker); its status. */
function get(url: string, authorization?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: authorization ? { authorization } : {} }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The value of one series in a scrape (NaN when absent). */
async function scrape(metricsUrl: string): Promise<(series: string) => number> {
  const res = await fetch(metricsUrl);
  expect(res.status).toBe(200);
  const lines = (await res.text()).split('\n');
  return (series) => {
    const line = lines.find((l) => l.startsWith(`${series} `));
    return line === undefined ? Number.NaN : Number(line.slice(series.length + 1));
  };
}

/** Starts a 2-worker gateway and waits until both workers are ready. */
async function startCluster(): Promise<{ run: GatewayProcess; url: string; metricsUrl: string; pids: number[] }> {
  run = startGatewayProcess(fx.env('2', CONFIG));
  const started = await run.waitFor(listening, 2);
  const url = String(started[0]?.['url']);
  await untilEveryWorkerReady(url);
  return { run, url, metricsUrl: String(started[0]?.['metrics']), pids: started.map((l) => Number(l['pid'])) };
}

/** `n` unauthenticated, then `n` bearer requests, each on a new connection. */
async function send(url: string, n: number): Promise<void> {
  const token = bearer(await kit.tokenWithScopes(['phone']));
  for (let i = 0; i < n; i++) expect(await get(`${url}/api/x`)).toBe(200);
  for (let i = 0; i < n; i++) expect(await get(`${url}/secure/y`, token)).toBe(200);
}

describe('metrics of a gateway with 2 workers', () => {
  /**
   * One cluster for three tests, in this order (a start of three processes each before): from its
   * first request, then with a worker paused, then with a worker killed and replaced. Each test
   * counts from what the one before left (`before`).
   */
  describe('one cluster, counted from its start, then with a worker paused, then replaced', () => {
    let cluster: Awaited<ReturnType<typeof startCluster>>;
    beforeAll(async () => {
      cluster = await startCluster();
      // Not one test's own process: afterEach would kill it after the first test.
      run = undefined;
    });
    afterAll(async () => {
      const { child, exited } = cluster.run;
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    });

    it('serves the sum over the workers: N requests on new connections read exactly N, scrape after scrape, never less', async () => {
      const { run, url, metricsUrl } = cluster;
      let total = 0;
      for (const batch of [6, 9, 5]) {
        await send(url, batch);
        total += batch;
        for (let i = 0; i < 3; i++) {
          const value = await scrape(metricsUrl);
          expect({ requests: value(REQUESTS), verified: value(VERIFIED) }).toEqual({
            requests: total,
            verified: total,
          });
        }
      }
      // Both workers answered some of them: the sum is not one worker's count.
      const served = await run.waitFor((l) => l['msg'] === 'request' && l['route'] === '/api/*', total);
      expect(new Set(served.map((l) => l['name'])).size).toBe(2);
      const value = await scrape(metricsUrl);
      expect(value('tokengate_gateway_cluster_workers')).toBe(2);
      // A gauge combined by its maximum, not summed: one sample, as old as the oldest worker's key set.
      expect(value('tokengate_gateway_keyset_age_seconds')).toBeGreaterThanOrEqual(0);
      expect(value('tokengate_gateway_revocation_stale')).toBe(0);
    });

    it('answers a scrape within the bound while a worker does not answer, counting that worker’s previous answer', async () => {
      const { url, metricsUrl, pids } = cluster;
      const before = (await scrape(metricsUrl))(REQUESTS);
      await send(url, 8);
      expect((await scrape(metricsUrl))(REQUESTS)).toBe(before + 8);
      const victim = pids[0] as number;
      process.kill(victim, 'SIGSTOP');
      try {
        const began = performance.now();
        const value = await scrape(metricsUrl);
        expect(performance.now() - began).toBeLessThan(3_000);
        expect({ requests: value(REQUESTS), late: value('tokengate_gateway_cluster_workers_late') }).toEqual({
          requests: before + 8,
          late: 1,
        });
      } finally {
        process.kill(victim, 'SIGCONT');
      }
      const value = await scrape(metricsUrl);
      expect({ requests: value(REQUESTS), late: value('tokengate_gateway_cluster_workers_late') }).toEqual({
        requests: before + 8,
        late: 0,
      });
    });

    it('keeps the counts of a worker that exited in the sum, so the counter does not go back when it is replaced', async () => {
      const { run, url, metricsUrl, pids } = cluster;
      const before = (await scrape(metricsUrl))(REQUESTS);
      await send(url, 8);
      expect((await scrape(metricsUrl))(REQUESTS)).toBe(before + 8);
      process.kill(pids[0] as number, 'SIGKILL');
      await run.waitFor(listening, 3);
      expect((await scrape(metricsUrl))(REQUESTS)).toBe(before + 8);
      await untilEveryWorkerReady(url);
      await send(url, 4);
      expect((await scrape(metricsUrl))(REQUESTS)).toBe(before + 12);
    });
  });

  it('serves the sum on METRICS_HOST and METRICS_PORT when the file names no metrics listener', async () => {
    // A Prometheus in another container scrapes the primary: the environment must reach its listener.
    const dir = await mkdtemp(join(tmpdir(), 'tokengate-cluster-metrics-'));
    try {
      const config = join(dir, 'gateway.yaml');
      writeFileSync(config, readFileSync(CONFIG, 'utf8').replace(/^metrics:.*\n/m, ''));
      const port = await freePort();
      run = startGatewayProcess({ ...fx.env('2', config), METRICS_HOST: '127.0.0.2', METRICS_PORT: String(port) });
      const started = await run.waitFor(listening, 2);
      const metricsUrl = `http://127.0.0.2:${port}/metrics`;
      expect(started.map((line) => line['metrics'])).toEqual([metricsUrl, metricsUrl]);
      const url = String(started[0]?.['url']);
      await untilEveryWorkerReady(url);
      await send(url, 3);
      const value = await scrape(metricsUrl);
      expect({ requests: value(REQUESTS), workers: value('tokengate_gateway_cluster_workers') }).toEqual({
        requests: 3,
        workers: 2,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** /readyz 200 on four new connections in a row: every worker (the replacement too) is ready. */
async function untilEveryWorkerReady(url: string): Promise<void> {
  let inARow = 0;
  while (inARow < 4) {
    inARow = (await get(`${url}/readyz`)) === 200 ? inARow + 1 : 0;
    if (inARow === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
