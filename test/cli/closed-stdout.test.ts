import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, stackEnv } from './cli-runner.ts';
import { migratedDataDir } from '#test/store-template.ts';

/** `tokengate <command>` whose stdout reader is gone from the start (`… | head`, a log shipper that died). */
function launchWithClosedStdout(command: string, env: Readonly<Record<string, string>>) {
  const child = spawn(process.execPath, [CLI, command], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

/** Polls `url` until it answers 200 (or the process is gone). */
async function until200(url: string, alive: () => boolean): Promise<void> {
  for (let i = 0; i < 1200 && alive(); i++) {
    if (
      (await fetch(url).then(
        (res) => res.status,
        () => 0,
      )) === 200
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a server whose stdout is closed', () => {
  let dataDir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    dataDir = await migratedDataDir('tokengate-closed-stdout-');
    env = await stackEnv(dataDir);
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  for (const [command, readyUrl] of [
    ['upstream', (e: Record<string, string>) => `http://127.0.0.1:${e['UPSTREAM_PORT']}/healthz`],
    ['start', (e: Record<string, string>) => `http://127.0.0.1:${e['GATEWAY_PORT']}/readyz`],
  ] as const) {
    it(`keeps serving after its start-up lines fail to write (${command}), and stops with exit 0 on SIGTERM`, {
      timeout: 180_000,
    }, async () => {
      const server = launchWithClosedStdout(command, env);
      try {
        await until200(readyUrl(env), () => server.child.exitCode === null);
        // The failed write of the URLs is reported a few ticks after it.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect(server.child.exitCode, server.stderr()).toBeNull();
        expect((await fetch(readyUrl(env))).status).toBe(200);
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
        expect(server.stderr()).toBe('');
      } finally {
        server.child.kill('SIGKILL');
      }
    });
  }
});
