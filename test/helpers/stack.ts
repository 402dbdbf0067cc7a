import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type CliResult, runCliInProcess } from './cli-in-process.ts';
import { freePort } from './free-port.ts';
import { migratedDataDir, storelessDataDir } from './store-template.ts';

export { freePort };

/**
 * Starts the real processes of the local stack (upstream, then gateway) on free loopback
 * ports with a temporary DATA_DIR, as an operator would with `npm run upstream` and
 * `npm run gateway`, and drives the admin CLI in-process (the CLI's `main`).
 */
const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'src', 'cli', 'main.ts');

export interface StackOptions {
  dataDir?: string;
  databaseUrl?: string;
  env?: Record<string, string>;
  /** What the gateway configuration in `env.GATEWAY_CONFIG` sets (default 5). */
  clockToleranceSec?: number;
}

export interface Stack {
  readonly gatewayUrl: string;
  readonly upstreamUrl: string;
  readonly adminUrl: string;
  readonly dataDir: string;
  readonly env: Record<string, string>;
  /** The gateway's clock tolerance in this stack, so expiry tests wait just long enough. */
  readonly clockToleranceSec: number;
  admin(args: string[]): Promise<CliResult>;
  adminToken(): Promise<string>;
  adminJson<T>(args: string[]): Promise<T>;
  stopUpstream(): Promise<void>;
  startUpstream(): Promise<void>;
  stop(): Promise<void>;
  /** Stops everything and starts it again on the same addresses and data. */
  restartAll(): Promise<void>;
  /** Stops both and removes the temporary data directory. */
  destroy(): Promise<void>;
  logs(): string;
}

export type { CliResult };

/** Runs `tokengate <args>` (an admin command, not a server) with this process's environment and `env`. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return runCliInProcess(args, { ...process.env, ...env });
}

export async function waitForReady(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) return;
      last = `${res.status} ${await res.text()}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms: ${last}`);
}

/** SIGTERM, then SIGKILL if it is still running 10 s later; resolves once it has exited. */
export function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  // A temporary DATA_DIR starts with a migrated embedded store and the address sample
  // (store-template.ts): tests about a first start pass a DATA_DIR of their own.
  const embedded = !options.databaseUrl && !options.env?.['DATABASE_URL'];
  const prefix = 'tokengate-e2e-';
  const dataDir = options.dataDir ?? (embedded ? await migratedDataDir(prefix) : await storelessDataDir(prefix));
  const [gatewayPort, upstreamPort, adminPort, metricsPort, upstreamMetricsPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  // Every port free and its own: test files run side by side, and a default port is shared.
  const env: Record<string, string> = {
    GATEWAY_PORT: String(gatewayPort),
    UPSTREAM_PORT: String(upstreamPort),
    ADMIN_PORT: String(adminPort),
    METRICS_PORT: String(metricsPort),
    UPSTREAM_METRICS_PORT: String(upstreamMetricsPort),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  // options.env may carry the ports of an earlier stack (a restart on the same addresses).
  const gatewayUrl = `http://127.0.0.1:${env.GATEWAY_PORT}`;
  const upstreamUrl = `http://127.0.0.1:${env.UPSTREAM_PORT}`;
  const adminUrl = `http://127.0.0.1:${env.ADMIN_PORT}`;
  let output = '';
  const launch = (role: string): ChildProcess => {
    const child = spawn(process.execPath, [cli, role], { env: { ...process.env, ...env }, stdio: 'pipe' });
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    return child;
  };
  let upstream: ChildProcess | undefined;
  let gateway: ChildProcess | undefined;
  try {
    upstream = launch('upstream');
    await waitForReady(upstreamUrl, 60_000);
    gateway = launch('gateway');
    await waitForReady(gatewayUrl, 30_000);
  } catch (error) {
    // No Stack to destroy reaches the caller: what did start is stopped here, not left running.
    await Promise.all([stopProcess(gateway), stopProcess(upstream)]);
    throw error;
  }

  const admin = (args: string[]) => runCli(['admin', ...args], env);
  const stop = async () => {
    await Promise.all([stopProcess(gateway), stopProcess(upstream)]);
    gateway = undefined;
    upstream = undefined;
  };
  return {
    gatewayUrl,
    upstreamUrl,
    adminUrl,
    dataDir,
    env,
    clockToleranceSec: options.clockToleranceSec ?? 5,
    admin,
    adminToken: () => readAdminToken(dataDir),
    async adminJson<T>(args: string[]): Promise<T> {
      const result = await admin([...args, '--json']);
      if (result.code !== 0) throw new Error(`admin ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
      return JSON.parse(result.stdout) as T;
    },
    async stopUpstream() {
      await stopProcess(upstream);
      upstream = undefined;
    },
    async startUpstream() {
      upstream = launch('upstream');
      await waitForReady(upstreamUrl, 60_000);
    },
    stop,
    async restartAll() {
      await stop();
      upstream = launch('upstream');
      await waitForReady(upstreamUrl, 60_000);
      gateway = launch('gateway');
      await waitForReady(gatewayUrl, 30_000);
    },
    async destroy() {
      await stop();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
    logs: () => output,
  };
}

export async function readAdminToken(dataDir: string): Promise<string> {
  return (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
}
