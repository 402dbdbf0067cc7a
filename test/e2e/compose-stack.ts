import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DockerComposeEnvironment, type StartedDockerComposeEnvironment, Wait } from 'testcontainers';
import { runCli, type Stack, waitForReady } from '#test/stack.ts';

/**
 * The same stack from docker-compose.yml, started by testcontainers, for machines with a
 * Docker engine. The gateway and the admin API are published on the compose file's ports.
 */
const exec = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');

export async function dockerEngineAvailable(): Promise<boolean> {
  try {
    await exec('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

async function waitHealthy(id: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const { stdout } = await exec('docker', ['inspect', '-f', '{{.State.Health.Status}}', id]);
    if (stdout.trim() === 'healthy') return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`container ${id} not healthy`);
}

export async function launchCompose(): Promise<Stack> {
  const secret = () => randomBytes(32).toString('base64url');
  const env = {
    POSTGRES_PASSWORD: secret(),
    ADMIN_TOKEN: secret(),
    REVOCATION_FEED_TOKEN: secret(),
    KEY_ENCRYPTION_KEY: secret(),
  };
  const started: StartedDockerComposeEnvironment = await new DockerComposeEnvironment(root, 'docker-compose.yml')
    .withBuild()
    .withEnvironment(env)
    .withWaitStrategy('upstream-1', Wait.forHealthCheck())
    .withWaitStrategy('gateway-1', Wait.forHealthCheck())
    .withStartupTimeout(300_000)
    .up();
  const upstreamId = started.getContainer('upstream-1').getId();
  const gatewayId = started.getContainer('gateway-1').getId();
  const gatewayUrl = 'http://127.0.0.1:8080';
  const adminUrl = 'http://127.0.0.1:3001';
  const cliEnv = { ADMIN_URL: adminUrl, ADMIN_TOKEN: env.ADMIN_TOKEN };
  const admin = (args: string[]) => runCli(['admin', ...args], cliEnv);
  return {
    gatewayUrl,
    upstreamUrl: 'http://upstream:3000',
    adminUrl,
    dataDir: '/data',
    env: cliEnv,
    clockToleranceSec: 5,
    admin,
    adminToken: async () => env.ADMIN_TOKEN,
    async adminJson<T>(args: string[]): Promise<T> {
      const result = await admin([...args, '--json']);
      if (result.code !== 0) throw new Error(`admin ${args.join(' ')} failed: ${result.stderr}`);
      return JSON.parse(result.stdout) as T;
    },
    async stopUpstream() {
      await exec('docker', ['stop', upstreamId]);
    },
    async startUpstream() {
      await exec('docker', ['start', upstreamId]);
      await waitHealthy(upstreamId);
    },
    async restartAll() {
      await exec('docker', ['restart', upstreamId]);
      await waitHealthy(upstreamId);
      await exec('docker', ['restart', gatewayId]);
      await waitReadyAt(gatewayUrl);
    },
    async stop() {
      await started.down({ removeVolumes: true });
    },
    async destroy() {
      await started.down({ removeVolumes: true });
    },
    logs: () => '',
  };
}

const waitReadyAt = (url: string) => waitForReady(url, 120_000);
