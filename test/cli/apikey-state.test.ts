import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ReplicaPair, startReplicaPair } from '../upstream/replica-pair.ts';
import type { TestUpstream } from '../upstream/upstream-fixture.ts';
import { runCli } from './cli-runner.ts';
import { postgresTitle } from '#test/postgres-only.ts';

type Json = Record<string, unknown>;
const base = process.env.TEST_DATABASE_URL;
const PHONE = '/api/phone/v1/verification?phone_number=0412345678&default_country_code=AU';

/**
 * The other replica caches an API key for 1 s; the store's change announcement must make it read
 * the key again well before that, so a change is asserted to show there within half of it.
 */
const BOUND_MS = 500;

/**
 * Disabling and enabling an API key on one of two upstream replicas on one PostgreSQL database,
 * through the admin API and `tokengate admin apikey disable|enable` (in-process): the
 * other replica, which has just accepted the key (and so holds it in its cache), must refuse it,
 * and accept it again, within the bound.
 */
describe.skipIf(!base)(postgresTitle('tokengate admin apikey disable and enable'), () => {
  let first: TestUpstream;
  let second: TestUpstream;
  let pair: ReplicaPair | undefined;
  let env: Record<string, string>;
  let projectId: string;
  beforeAll(async () => {
    pair = await startReplicaPair(base as string);
    ({ first, second } = pair);
    env = { ADMIN_URL: first.upstream.adminUrl, DATA_DIR: first.dataDir };
    const project = await first.admin('POST', '/projects', { name: 'Keyed', plan: 'free' });
    projectId = String((project.body as Json)['id']);
  });
  afterAll(() => pair?.close());

  async function newKey(): Promise<{ key: string; secret: string }> {
    const res = await first.admin('POST', `/projects/${projectId}/apikeys`);
    expect(res.status).toBe(201);
    const body = res.body as Json;
    return { key: String(body['key']), secret: String(body['secret']) };
  }

  const callAt = async (t: TestUpstream, key: { key: string; secret: string }) => {
    const res = await fetch(`${t.upstream.url}${PHONE}&key=${encodeURIComponent(key.key)}`, {
      headers: { authorization: key.secret },
    });
    return { status: res.status, code: ((await res.json()) as Json)['error_code'] };
  };

  /** Milliseconds from `since` until `second` answers the key as `wanted` does; fails past the bound. */
  async function seenOnSecond(key: { key: string; secret: string }, since: number, wanted: (a: Json) => boolean) {
    for (;;) {
      const answer = await callAt(second, key);
      const ms = performance.now() - since;
      if (wanted(answer)) return ms;
      if (ms > BOUND_MS) throw new Error(`replica 2 still answers ${JSON.stringify(answer)} after ${ms.toFixed(0)} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('refuses a key disabled on one replica with 1001 on the other, which had it cached, and accepts it again once enabled', async () => {
    const key = await newKey();
    // The creation's own announcement reaches replica 2 first, so it cannot drop what comes next.
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Replica 2 accepts the key just before each change, so it holds it in its cache for 1 s.
    expect(await callAt(second, key)).toEqual({ status: 200, code: undefined });
    const off = await first.admin('POST', `/apikeys/${key.key}/disable`);
    const offAt = performance.now();
    expect(off).toMatchObject({ status: 200, body: { key: key.key, enabled: false } });
    const refusedMs = await seenOnSecond(key, offAt, (a) => a['status'] === 401 && a['code'] === '1001');
    expect(await callAt(first, key)).toEqual({ status: 401, code: '1001' });

    expect(await callAt(second, key)).toEqual({ status: 401, code: '1001' });
    const on = await first.admin('POST', `/apikeys/${key.key}/enable`);
    const onAt = performance.now();
    expect(on).toMatchObject({ status: 200, body: { key: key.key, enabled: true } });
    const acceptedMs = await seenOnSecond(key, onAt, (a) => a['status'] === 200);
    console.log(
      `[apikey-state] on replica 2 after replica 1's answer: refused ${refusedMs.toFixed(0)} ms, accepted ${acceptedMs.toFixed(0)} ms`,
    );
  });

  it('prints {key, enabled} with --json and a sentence without, and the other replica follows', async () => {
    const key = await newKey();
    expect((await callAt(second, key)).status).toBe(200);
    const off = await runCli(['admin', 'apikey', 'disable', key.key, '--json'], env);
    expect(off).toEqual({ code: 0, stdout: `${JSON.stringify({ key: key.key, enabled: false })}\n`, stderr: '' });
    await vi.waitFor(async () => expect(await callAt(second, key)).toEqual({ status: 401, code: '1001' }), {
      timeout: 2_000,
      interval: 20,
    });
    const on = await runCli(['admin', 'apikey', 'enable', key.key, '--json'], env);
    expect(on).toEqual({ code: 0, stdout: `${JSON.stringify({ key: key.key, enabled: true })}\n`, stderr: '' });
    await vi.waitFor(async () => expect((await callAt(second, key)).status).toBe(200), {
      timeout: 2_000,
      interval: 20,
    });
    const text = await runCli(['admin', 'apikey', 'disable', key.key], env);
    expect(text).toEqual({
      code: 0,
      stdout: `API key ${key.key} disabled (its calls are refused until it is enabled)\n`,
      stderr: '',
    });
    expect((await runCli(['admin', 'apikey', 'enable', key.key], env)).stdout).toBe(`API key ${key.key} enabled\n`);
  });

  it('fails with exit 1 and the admin API’s reason for an unknown key, printing nothing on stdout', async () => {
    for (const verb of ['disable', 'enable']) {
      const result = await runCli(['admin', 'apikey', verb, 'key_0000000000000000000000', '--json'], env);
      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr: 'tokengate: admin API: api key "key_0000000000000000000000" does not exist (HTTP 404)\n',
      });
    }
  });

  it('refuses wrong usage with exit 2 before any request, and explains itself with --help', async () => {
    const key = await newKey();
    for (const args of [[], [key.key, key.key]]) {
      const result = await runCli(['admin', 'apikey', 'disable', ...args], env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('expected exactly one key');
    }
    expect((await callAt(second, key)).status).toBe(200);
    const help = await runCli(['admin', 'apikey', 'disable', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: tokengate admin apikey disable KEY [--json]');
    expect(help.stdout).toContain('its calls are refused (1001, as an unknown key) until it is enabled again');
  });
});
