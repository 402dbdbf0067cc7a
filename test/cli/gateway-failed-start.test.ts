import { readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '#store';
import { launch, spawnCli, stackEnv, startGatewayFixture } from './cli-runner.ts';
import { migratedDataDir } from '#test/store-template.ts';

/** Far longer than a start takes; a gateway whose loops outlive the error never gets there. */
const EXIT_BOUND_MS = 60_000;

describe('tokengate gateway that fails after its verifier started', () => {
  let fixture: Awaited<ReturnType<typeof startGatewayFixture>>;
  beforeAll(async () => {
    fixture = await startGatewayFixture('tokengate-failed-start-');
  });
  afterAll(() => fixture.close());

  it('prints the error and exits 1 when its TLS certificate cannot be read (the key-set and feed loops are stopped)', {
    timeout: EXIT_BOUND_MS + 10_000,
  }, async () => {
    const file = await fixture.writeConfig(
      `tls: { cert: ${join(fixture.dir, 'missing-cert.pem')}, key: ${join(fixture.dir, 'missing-key.pem')} }\n`,
    );
    const gateway = launch('gateway', { GATEWAY_CONFIG: file, LOG_LEVEL: 'warn' });
    let bound: NodeJS.Timeout | undefined;
    const stillRunning = new Promise<'still running'>((resolve) => {
      bound = setTimeout(() => resolve('still running'), EXIT_BOUND_MS);
    });
    try {
      expect(await Promise.race([gateway.exited, stillRunning])).toBe(1);
      expect(gateway.stderr()).toContain('ENOENT');
      expect(gateway.stderr()).toContain('missing-cert.pem');
    } finally {
      clearTimeout(bound);
      gateway.child.kill('SIGKILL');
    }
  });

  it('with workers 2 and its port taken, each worker prints the error and exits, and the primary gives up with exit 1', {
    timeout: EXIT_BOUND_MS + 10_000,
  }, async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const file = await fixture.writeConfig('workers: 2\n');
    await writeFile(file, (await readFile(file, 'utf8')).replace('listen: { port: 0 }', `listen: { port: ${port} }`));
    const gateway = launch('gateway', { GATEWAY_CONFIG: file, LOG_LEVEL: 'info' });
    let bound: NodeJS.Timeout | undefined;
    const stillRunning = new Promise<'still running'>((resolve) => {
      bound = setTimeout(() => resolve('still running'), EXIT_BOUND_MS);
    });
    try {
      expect(await Promise.race([gateway.exited, stillRunning])).toBe(1);
      expect(gateway.stderr()).toContain(`EADDRINUSE 127.0.0.1:${port}`);
      expect(gateway.stderr()).not.toMatch(/\n\s+at /);
      expect(gateway.stdout()).toContain('gateway workers keep crashing; stopping');
      expect(gateway.stderr()).toMatch(/\ntokengate: gateway workers keep failing \(5 exits within 30 s\): stopped\n$/);
    } finally {
      clearTimeout(bound);
      gateway.child.kill('SIGKILL');
      taken.close();
    }
  });
});

describe('tokengate start whose gateway port is taken', () => {
  it('prints the one error line, nothing about retrying the key set, releases DATA_DIR and exits 1', {
    timeout: 120_000,
  }, async () => {
    const dataDir = await migratedDataDir('tokengate-start-taken-');
    const taken = createServer();
    try {
      const env: Record<string, string> = { ...(await stackEnv(dataDir)), LOG_LEVEL: 'info' };
      await new Promise<void>((resolve) => taken.listen(Number(env['GATEWAY_PORT']), '127.0.0.1', resolve));
      // Spawned: its stdout holds the log lines, and the lock must end with the process.
      const result = await spawnCli(['start'], env, undefined, 90_000);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `tokengate: listen EADDRINUSE: address already in use 127.0.0.1:${env['GATEWAY_PORT']}\n`,
      );
      // The key set was stopped with the failed start: nothing is retried, so no line may say so.
      expect(result.stdout).not.toContain('first load failed; retrying');
      // The embedded store's lock ended with the process: DATA_DIR opens again.
      await (await openStore({ dataDir })).close();
    } finally {
      taken.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
