import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FeedServer, startFeedServer } from '#test/feed-server.ts';
import { type JwksServer, startJwksServer } from '#test/jwks-server.ts';
import { createTestKey } from '#test/tokens.ts';
import { CLI, runCli } from './cli-runner.ts';

describe('tokengate gateway and LOG_LEVEL', () => {
  let dir: string;
  let file: string;
  let jwks: JwksServer;
  let feed: FeedServer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tokengate-log-level-'));
    [jwks, feed] = await Promise.all([startJwksServer([await createTestKey()]), startFeedServer(undefined, 1)]);
    file = join(dir, 'gateway.yaml');
    await writeFile(
      file,
      `listen: { port: 0 }
upstream: { url: "http://127.0.0.1:9" }
issuer:
  jwksUrl: ${jwks.url}
  revocationFeed: { url: "${feed.url}", token: "${feed.token}" }
metrics: { port: 0 }
routes:
  - { path: /api/x, auth: bearer }
`,
    );
  });
  afterAll(async () => {
    await Promise.all([jwks.close(), feed.close(), rm(dir, { recursive: true, force: true })]);
  });

  it('refuses an unknown LOG_LEVEL naming the variable, as the upstream does (exit 2, nothing on stdout)', { timeout: 30_000 }, async () => {
    const result = await runCli(['gateway'], { GATEWAY_CONFIG: file, LOG_LEVEL: 'verbose' }, undefined, 20_000);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    // Before: "tokengate: default level:verbose must be included in custom levels", exit 1.
    expect(result.stderr).toBe(
      'tokengate: invalid configuration:\n  LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")\n',
    );
  });

  it('starts at the default level (info) when LOG_LEVEL is set but empty, as the upstream does', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [CLI, 'gateway'], { env: { PATH: process.env['PATH'] ?? '', GATEWAY_CONFIG: file, LOG_LEVEL: '' }, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 30_000;
      // Before: it exited 1 at once ("default level: must be included in custom levels").
      while (!stdout.includes('"msg":"gateway listening"')) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the gateway did not start; stderr: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(stdout).toContain('"level":30');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
