import { type ChildProcess, spawn } from 'node:child_process';
import { expect, onTestFinished } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type CliResult, runCliInProcess } from '#test/cli-in-process.ts';
import { startFeedServer } from '#test/feed-server.ts';
import { startJwksServer } from '#test/jwks-server.ts';
import { freePort, stopProcess } from '#test/stack.ts';
import { createTestKey } from '#test/tokens.ts';

/** `src/cli/main.ts`, the `tokengate` process, run as a child on the Node 24 that runs vitest. */
export const CLI = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');

export type { CliResult };

/**
 * `tokengate ARGS` with `env` (and PATH) as its environment: in-process through the CLI's
 * `main`, except one run from another directory, which `spawnCli` runs as a child (the gateway's
 * file is read from the process's directory). Tests run `upstream`, `start` and `gateway` here
 * only to see them refuse: `timeoutMs` is when an `upstream` or `start` that started instead is
 * stopped (it then exits 0); `launch` runs a server, `spawnCli` a test about the process.
 */
export function runCli(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  cwd?: string,
  timeoutMs?: number,
): Promise<CliResult> {
  if (cwd !== undefined && resolve(cwd) !== process.cwd()) return spawnCli(args, env, cwd, timeoutMs);
  return runCliInProcess(args, { PATH: process.env['PATH'] ?? '', ...env }, undefined, timeoutMs);
}

/**
 * `tokengate ARGS` as a real child process, for the tests about the process itself (its exit
 * status, what reaches its stdout and stderr). `timeoutMs`: SIGTERM after this long, for a
 * command that should fail at once but might start a server instead.
 */
export function spawnCli(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  cwd?: string,
  timeoutMs?: number,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env['PATH'] ?? '', ...env },
      cwd,
      stdio: 'pipe',
      timeout: timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * A long-running `tokengate <command>` child (a server) with its output collected. Launched in a
 * test, it is stopped when the test ends, passed or failed (SIGTERM, then SIGKILL); launched in
 * a hook, the file's `afterAll` stops it.
 */
export function launch(command: string, env: Readonly<Record<string, string>>) {
  const child: ChildProcess = spawn(process.execPath, [CLI, command], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: 'pipe',
  });
  stopAfterTest(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    /** Resolves with the first match of `pattern` in stdout (polled: output arrives in chunks). */
    async waitFor(pattern: RegExp, timeoutMs = 90_000): Promise<RegExpExecArray> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(stdout);
        if (match) return match;
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(`no ${pattern} in output; stderr: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

/** Outside a test (in a hook) there is no test to end: onTestFinished throws, and the hooks stop it. */
function stopAfterTest(child: ChildProcess): void {
  try {
    onTestFinished(() => stopProcess(child));
  } catch {
    // Launched by a beforeAll: its afterAll stops it (and test/support/child-processes.ts checks).
  }
}

/** The environment of a whole local stack: the contract's ports, each free on loopback, and `dataDir`. */
export async function stackEnv(dataDir: string): Promise<Record<string, string>> {
  const [gateway, upstream, admin, metrics, upstreamMetrics] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  return {
    GATEWAY_PORT: String(gateway),
    UPSTREAM_PORT: String(upstream),
    ADMIN_PORT: String(admin),
    METRICS_PORT: String(metrics),
    UPSTREAM_METRICS_PORT: String(upstreamMetrics),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
}

/**
 * What `tokengate gateway` needs to start, except an upstream (the listener starts without one):
 * a real key-set server and revocation feed, and a directory for config files naming them.
 */
export async function startGatewayFixture(prefix: string) {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const [jwks, feed] = await Promise.all([startJwksServer([await createTestKey()]), startFeedServer(undefined, 1)]);
  return {
    dir,
    /** Writes a config file with one bearer route; `extra` adds top-level YAML lines (e.g. `tls: ...`). */
    async writeConfig(extra = ''): Promise<string> {
      const file = join(dir, 'gateway.yaml');
      await writeFile(
        file,
        `listen: { port: 0 }
${extra}upstream: { url: "http://127.0.0.1:9" }
issuer:
  jwksUrl: ${jwks.url}
  revocationFeed: { url: "${feed.url}", token: "${feed.token}" }
metrics: { port: 0 }
routes:
  - { path: /api/x, auth: bearer }
`,
      );
      return file;
    },
    close: () => Promise.all([jwks.close(), feed.close(), rm(dir, { recursive: true, force: true })]),
  };
}

/**
 * `tokengate admin …` as the operator contract is driven: `json` runs with `--json` and expects
 * success, nothing on stderr and exactly one JSON value on stdout; `fails` expects a non-zero exit,
 * nothing on stdout and a message without a stack trace. `env` is read at each call, so it may be
 * set in a `beforeAll`.
 */
export function adminCommands(env: () => Readonly<Record<string, string>>) {
  return {
    async json(args: readonly string[]): Promise<unknown> {
      const result = await runCli(['admin', ...args, '--json'], env());
      expect(result.stderr, args.join(' ')).toBe('');
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout.endsWith('\n')).toBe(true);
      return JSON.parse(result.stdout);
    },
    async fails(args: readonly string[], extraEnv: Readonly<Record<string, string>> = {}): Promise<CliResult> {
      const result = await runCli(['admin', ...args], { ...env(), ...extraEnv });
      expect(result.code, args.join(' ')).not.toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toMatch(/\n\s+at /);
      return result;
    },
  };
}
