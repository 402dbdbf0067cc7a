import { rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, stackEnv } from './cli-runner.ts';
import { migratedDataDir } from '#test/store-template.ts';

describe('tokengate start while it stops', () => {
  let dataDir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    dataDir = await migratedDataDir('tokengate-start-signals-');
    env = await stackEnv(dataDir);
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('`upstream` alone keeps serving through a SIGHUP (it has nothing to reload), and SIGTERM still stops it (exit 0)', {
    timeout: 180_000,
  }, async () => {
    // Regression: with no SIGHUP listener, a hang-up or a `systemctl reload` ended it at once.
    const upstream = launch('upstream', env);
    try {
      await upstream.waitFor(/admin token:/);
      upstream.child.kill('SIGHUP');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await fetch(`http://127.0.0.1:${env['UPSTREAM_PORT']}/healthz`)).status).toBe(200);
      upstream.child.kill('SIGTERM');
      expect(await upstream.exited).toBe(0);
    } finally {
      upstream.child.kill('SIGKILL');
    }
  });

  // One `start` for both of its signal cases (a stack's start is its cost): a SIGHUP while it
  // starts, then, once it serves, a SIGHUP during the drain of a SIGTERM.
  it('survives a SIGHUP while it is still starting (before its gateway watches for one), then serves, ignores a SIGHUP during the drain: the request in flight is answered and the exit is 0', {
    timeout: 180_000,
  }, async () => {
    // Regression: Node ends a process on SIGHUP when nothing listens for it; the gateway's reload listener comes last.
    const stack = launch('start', env);
    try {
      // The moment the upstream answers, the stack is running but its gateway (and its reload listener) is not up yet.
      await expect
        .poll(
          async () => (await fetch(`http://127.0.0.1:${env['UPSTREAM_PORT']}/healthz`).catch(() => undefined))?.status,
          { timeout: 60_000, interval: 10 },
        )
        .toBe(200);
      stack.child.kill('SIGHUP');
      expect(stack.stdout()).not.toContain('admin token:');
      await stack.waitFor(/admin token:/);
      expect((await fetch(`http://127.0.0.1:${env['GATEWAY_PORT']}/healthz`)).status).toBe(200);

      // A request whose headers are still arriving holds the gateway's drain open.
      const socket = connect(Number(env['GATEWAY_PORT']), '127.0.0.1');
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      const ended = new Promise((resolve) => socket.on('close', resolve));
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write('GET /healthz HTTP/1.1\r\nHost: gateway\r\n');
      await new Promise((resolve) => setTimeout(resolve, 200));
      stack.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 500));
      stack.child.kill('SIGHUP');
      await new Promise((resolve) => setTimeout(resolve, 500));
      socket.write('\r\n');
      await ended;
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(await stack.exited).toBe(0);
    } finally {
      stack.child.kill('SIGKILL');
    }
  });
});
