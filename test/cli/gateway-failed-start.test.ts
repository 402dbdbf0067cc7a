import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FeedServer, startFeedServer } from '#test/feed-server.ts';
import { type JwksServer, startJwksServer } from '#test/jwks-server.ts';
import { createTestKey } from '#test/tokens.ts';
import { CLI } from './cli-runner.ts';

/** Far longer than a start takes; a gateway whose loops outlive the error never gets there. */
const EXIT_BOUND_MS = 60_000;

describe('tokengate gateway that fails after its verifier started', () => {
  let dir: string;
  let jwks: JwksServer;
  let feed: FeedServer;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tokengate-failed-start-'));
    [jwks, feed] = await Promise.all([startJwksServer([await createTestKey()]), startFeedServer(undefined, 1)]);
  });
  afterAll(async () => {
    await Promise.all([jwks.close(), feed.close(), rm(dir, { recursive: true, force: true })]);
  });

  it('prints the error and exits 1 when its TLS certificate cannot be read (the key-set and feed loops are stopped)', { timeout: EXIT_BOUND_MS + 10_000 }, async () => {
    const file = join(dir, 'gateway.yaml');
    await writeFile(
      file,
      `listen: { port: 0 }
tls: { cert: ${join(dir, 'missing-cert.pem')}, key: ${join(dir, 'missing-key.pem')} }
upstream: { url: "http://127.0.0.1:9" }
issuer:
  jwksUrl: ${jwks.url}
  revocationFeed: { url: "${feed.url}", token: "${feed.token}" }
metrics: { port: 0 }
routes:
  - { path: /api/x, auth: bearer }
`,
    );
    const child = spawn(process.execPath, [CLI, 'gateway'], { env: { PATH: process.env['PATH'] ?? '', GATEWAY_CONFIG: file, LOG_LEVEL: 'warn' }, stdio: 'pipe' });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    let bound: NodeJS.Timeout | undefined;
    const stillRunning = new Promise<'still running'>((resolve) => {
      bound = setTimeout(() => resolve('still running'), EXIT_BOUND_MS);
    });
    try {
      expect(await Promise.race([exited, stillRunning])).toBe(1);
      expect(stderr).toContain('ENOENT');
      expect(stderr).toContain('missing-cert.pem');
    } finally {
      clearTimeout(bound);
      child.kill('SIGKILL');
    }
  });
});
