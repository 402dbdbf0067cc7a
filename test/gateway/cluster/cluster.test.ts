import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dpopKey, dpopProof } from '#test/dpop.ts';
import { createTokenKit, TEST_ISSUER } from '#test/tokens.ts';
import { type ClusterFixture, startClusterFixture } from './fixture.ts';
import { until } from '#test/until.ts';

let fx: ClusterFixture;
let child: ChildProcess | undefined;

beforeAll(async () => {
  fx = await startClusterFixture();
});
afterAll(() => fx.close());
afterEach(() => {
  child?.kill('SIGKILL');
  child = undefined;
});

interface Running {
  readonly child: ChildProcess;
  readonly lines: Array<Record<string, unknown>>;
  /** Resolves when `count` log lines match. */
  waitFor(
    predicate: (line: Record<string, unknown>) => boolean,
    count?: number,
  ): Promise<Array<Record<string, unknown>>>;
  exited: Promise<number | null>;
}

function startProcess(workers: string, config = join(import.meta.dirname, 'gateway.yaml')): Running {
  const proc = spawn(process.execPath, [join(import.meta.dirname, 'run-gateway.ts')], {
    env: fx.env(workers, config),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child = proc;
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  let buffer = '';
  proc.stdout?.setEncoding('utf8');
  proc.stdout?.on('data', (chunk: string) => {
    buffer += chunk;
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const part of parts) if (part.startsWith('{')) lines.push(JSON.parse(part) as Record<string, unknown>);
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return {
    child: proc,
    lines,
    exited,
    async waitFor(predicate, count = 1) {
      for (;;) {
        const found = lines.filter(predicate);
        if (found.length >= count) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

const listening = (l: Record<string, unknown>) => l['msg'] === 'gateway listening';

describe('cluster mode', () => {
  /**
   * One 2-worker cluster for three tests, in this order (a start of three processes each before):
   * a worker crashes and is replaced, then a SIGHUP reloads both workers, then a SIGTERM drains it
   * and ends it. Its GATEWAY_CONFIG is a symlink into another directory (as a mounted ConfigMap
   * is): the workers watch the symlink's directory, so an edit of the target reaches them only
   * through SIGHUP.
   */
  describe('one cluster, in turn crashed, reloaded and drained', () => {
    let dir: string;
    let target: string;
    let cluster: Running;
    let url: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'tg-cluster-hup-'));
      await mkdir(join(dir, 'data'));
      target = join(dir, 'data', 'gateway.yaml');
      await copyFile(join(import.meta.dirname, 'gateway.yaml'), target);
      await mkdir(join(dir, 'config'));
      await symlink(target, join(dir, 'config', 'gateway.yaml'));
      cluster = startProcess('2', join(dir, 'config', 'gateway.yaml'));
      // Not one test's own process: afterEach would kill it after the first test.
      child = undefined;
      const [first] = await cluster.waitFor(listening, 2);
      url = String(first?.['url']);
    });
    afterAll(async () => {
      if (cluster && cluster.child.exitCode === null && cluster.child.signalCode === null) {
        cluster.child.kill('SIGKILL');
        await cluster.exited;
      }
      await rm(dir, { recursive: true, force: true });
    });

    it('runs the configured number of workers on one port and restarts a crashed one', async () => {
      const started = await cluster.waitFor(listening, 2);
      const urls = new Set(started.map((l) => l['url']));
      expect(urls.size).toBe(1);
      expect((await fetch(`${url}/api/x`)).status).toBe(200);
      const victim = started[0]?.['pid'];
      expect(typeof victim).toBe('number');
      process.kill(victim as number, 'SIGKILL');
      const after = await cluster.waitFor(listening, 3);
      expect(after[2]?.['pid']).not.toBe(victim);
      expect((await fetch(`${url}/api/x`)).status).toBe(200);
    });

    it('passes SIGHUP on to every worker, which reloads a file its watch cannot see change', async () => {
      expect((await fetch(`${url}/other/x`)).status).toBe(404);
      await writeFile(target, `${await readFile(target, 'utf8')}  - { path: /other/*, auth: none }\n`);
      cluster.child.kill('SIGHUP');
      const reloaded = cluster.waitFor((l) => l['msg'] === 'config reloaded', 2).then(() => 'both reloaded');
      expect(
        await Promise.race([
          reloaded,
          new Promise((resolve) => setTimeout(() => resolve('not reloaded after 10 s'), 10_000).unref()),
        ]),
      ).toBe('both reloaded');
      for (let i = 0; i < 6; i++) expect((await fetch(`${url}/other/x`)).status).toBe(200);
    });

    it('drains on SIGTERM: an in-flight request completes and the process exits 0', async () => {
      fx.upstream.setDelay(500);
      const seen = fx.upstream.seen.length;
      const inflight = fetch(`${url}/api/slow`);
      await until(() => fx.upstream.seen.length > seen, 'the upstream holds the in-flight request');
      cluster.child.kill('SIGTERM');
      const res = await inflight;
      expect(res.status).toBe(200);
      fx.upstream.setDelay(0);
      expect(await cluster.exited).toBe(0);
    });
  });

  it('drains on SIGTERM in single-process mode too', async () => {
    const run = startProcess('1');
    const [first] = await run.waitFor(listening, 1);
    fx.upstream.setDelay(300);
    const seen = fx.upstream.seen.length;
    const inflight = fetch(`${String(first?.['url'])}/api/slow`);
    await until(() => fx.upstream.seen.length > seen, 'the upstream holds the in-flight request');
    run.child.kill('SIGTERM');
    expect((await inflight).status).toBe(200);
    fx.upstream.setDelay(0);
    expect(await run.exited).toBe(0);
  });

  /**
   * Two workers with DPoP nonces required and no secret or Redis configured, and a token bound to
   * a new key: one cluster for both tests (each proof has a jti of its own, so neither test's
   * proofs are replays in the other), rather than a start of three processes each.
   */
  describe('with DPoP nonces and no shared store', () => {
    let dpop: { url: URL; key: Awaited<ReturnType<typeof dpopKey>>; token: string };
    let cluster: Running | undefined;
    beforeAll(async () => {
      cluster = startProcess('2', join(import.meta.dirname, 'dpop.yaml'));
      // Not the test's own process: afterEach would kill it after the first test.
      child = undefined;
      const [first] = await cluster.waitFor(listening, 2);
      const key = await dpopKey();
      const kit = await createTokenKit({ now: () => Date.now() }, fx.key);
      const token = await kit.goodToken({ claims: { cnf: { jkt: key.jkt } } });
      dpop = { url: new URL(String(first?.['url'])), key, token };
    });
    afterAll(async () => {
      if (!cluster || cluster.child.exitCode !== null || cluster.child.signalCode !== null) return;
      cluster.child.kill('SIGKILL');
      await cluster.exited;
    });

    it('has every worker accept the DPoP nonces its siblings hand out, with no secret configured', async () => {
      const { url, key, token } = dpop;
      const call = async (nonce: string | undefined) => {
        const dpop = await dpopProof(key, 'GET', `${TEST_ISSUER}/api/x`, { token, claims: { nonce } });
        return freshConnectionGet(url, '/api/x', { authorization: `DPoP ${token}`, dpop });
      };
      const nonce = (await call(undefined)).nonce;
      expect(nonce).toBeDefined();
      // A new connection each: the primary hands them to the workers in turn.
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await call(nonce)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    });

    it('has every worker refuse a DPoP proof another worker accepted, with no Redis', async () => {
      const { url, key, token } = dpop;
      const proof = (nonce: string | undefined) =>
        dpopProof(key, 'GET', `${TEST_ISSUER}/api/x`, { token, claims: { nonce } });
      const call = (dpop: string) => freshConnectionGet(url, '/api/x', { authorization: `DPoP ${token}`, dpop });
      const nonce = (await call(await proof(undefined))).nonce;
      const once = await proof(nonce);
      expect((await call(once)).status).toBe(200);
      // A new connection each: the replays reach both workers.
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await call(once)).status);
      expect(statuses).toEqual([401, 401, 401, 401]);
      expect((await call(await proof(nonce))).status).toBe(200);
    });
  });
});

/** A GET on a connection of its own (no keep-alive pool), so that each goes to the next worker. */
function freshConnectionGet(
  base: URL,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; nonce: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: base.hostname, port: base.port, path, headers, agent: false }, (res) => {
      res.resume();
      const nonce = res.headers['dpop-nonce'];
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, nonce: typeof nonce === 'string' ? nonce : undefined }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}
