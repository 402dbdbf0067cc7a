import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { stopProcess } from '#test/stack.ts';
import { CLI, runCli, spawnCli } from './cli-runner.ts';

/** A port that was free a moment ago: nothing listens there. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 1;
}

/** Listens on the first free port of the Fetch standard's bad-port list (fetch refuses to connect to any of them). */
async function listenOnBadPort(server: Server): Promise<number> {
  for (const port of [6000, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080, 5060, 5061, 6566, 4190]) {
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (listening) return port;
  }
  throw new Error('every bad port is taken');
}

describe('tokengate CLI without a server', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tokengate-cli-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('explains an unreachable admin API on stderr and exits non-zero without a stack trace', async () => {
    const port = await closedPort();
    // Spawned: the exit status and the stderr of the process itself, for a failure inside a command.
    const result = await spawnCli(['admin', 'keys', 'list', '--json'], {
      ADMIN_URL: `http://127.0.0.1:${port}`,
      ADMIN_TOKEN: 't',
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(`cannot reach the admin API at http://127.0.0.1:${port} \\(ECONNREFUSED\\)`),
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('says that an admin API on a port fetch refuses (6000, 6665 ...) cannot be reached there, rather than that it is down', async () => {
    const server = createHttpServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]'),
    );
    const port = await listenOnBadPort(server);
    try {
      const result = await runCli(['admin', 'keys', 'list', '--json'], {
        ADMIN_URL: `http://127.0.0.1:${port}`,
        ADMIN_TOKEN: 't',
      });
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: `tokengate: ADMIN_URL: port ${port} is one that fetch and browsers refuse to connect to (the Fetch standard's bad ports): run the admin API on another ADMIN_PORT\n`,
      });
    } finally {
      server.close();
    }
  });

  it('refuses an ADMIN_URL carrying user:password@ without printing the password, whether or not the URL parses', async () => {
    const secret = 'admin-token-put-in-the-url-0123456789';
    const parsed = await runCli(['admin', 'keys', 'list', '--json'], {
      ADMIN_URL: `http://admin:${secret}@127.0.0.1:9`,
      ADMIN_TOKEN: 't',
    });
    expect(parsed.code).toBe(2);
    expect(parsed.stderr).toContain('ADMIN_URL: must not carry a user name or password');
    const unparsable = await runCli(['admin', 'keys', 'list', '--json'], {
      ADMIN_URL: `http://admin:${secret}@127.0.0.1:port`,
      ADMIN_TOKEN: 't',
    });
    expect(unparsable.code).toBe(2);
    expect(unparsable.stderr).toContain('ADMIN_URL: not an absolute URL');
    for (const result of [parsed, unparsable]) expect(result.stderr + result.stdout).not.toContain(secret.slice(0, 12));
  });

  it('never prints a password from an ADMIN_URL without a scheme or with only //, and refuses a scheme other than http(s)', async () => {
    const secret = 'admin-token-put-in-the-url-0123456789';
    // admin:<token>@host parses (scheme "admin:"); //admin:<token>@host does not parse at all.
    for (const url of [`admin:${secret}@127.0.0.1:9`, `//admin:${secret}@127.0.0.1:9`]) {
      const result = await runCli(['admin', 'keys', 'list', '--json'], { ADMIN_URL: url, ADMIN_TOKEN: 't' });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/ADMIN_URL: not an (absolute|http:\/\/ or https:\/\/) URL: .*…@127\.0\.0\.1:9/);
      expect(result.stderr + result.stdout).not.toContain(secret.slice(0, 12));
    }
  });

  it('says where the admin token was expected when neither ADMIN_TOKEN nor the file exists', async () => {
    const result = await runCli(['admin', 'project', 'create', '--name', 'n', '--plan', 'free', '--json'], {
      DATA_DIR: dataDir,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      `no admin token: set ADMIN_TOKEN, or start the upstream once so that it writes ${join(dataDir, 'admin-token')}`,
    );
  });

  it('rejects unknown commands, unknown options and missing arguments with exit code 2 and the usage', async () => {
    const env = { ADMIN_TOKEN: 't', ADMIN_URL: 'http://127.0.0.1:9' };
    const unknownCommand = await runCli(['frobnicate'], env);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain('unknown command "frobnicate"');
    const unknownAdmin = await runCli(['admin', 'project', 'explode'], env);
    expect(unknownAdmin.code).toBe(2);
    expect(unknownAdmin.stderr).toContain('unknown admin command "project explode"');
    const unknownOption = await runCli(['admin', 'keys', 'list', '--colour'], env);
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toContain("Unknown option '--colour'");
    const missing = await runCli(['admin', 'client', 'create', '--project', 'p', '--json'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing --name');
    const badPlan = await runCli(['admin', 'project', 'create', '--name', 'n', '--plan', 'gold'], env);
    expect(badPlan.code).toBe(2);
    expect(badPlan.stderr).toContain('--plan must be one of free, business, enterprise');
    const badScope = await runCli(
      ['admin', 'client', 'create', '--project', 'p', '--name', 'n', '--scopes', 'address,adress'],
      env,
    );
    expect(badScope.code).toBe(2);
    expect(badScope.stderr).toContain('--scopes: unknown scope "adress"');
    for (const result of [unknownCommand, unknownAdmin, unknownOption, missing, badPlan, badScope])
      expect(result.stdout).toBe('');
  });

  it('says on stderr, without a stack trace, when stdout is closed before the output is written', async () => {
    const withStdoutClosed = async (args: string[]) => {
      const child = spawn(process.execPath, [CLI, ...args], {
        cwd: join(import.meta.dirname, '..', '..'),
        env: { PATH: process.env['PATH'] ?? '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      onTestFinished(() => stopProcess(child));
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const [code] = (await once(child, 'close')) as [number | null];
      return { code, stderr };
    };
    const line = 'tokengate: the command ran, but its output could not be written to stdout (EPIPE)\n';
    // Four processes at once, not one after the other: each starts Node and check-config loads
    // both sides' configuration code (about 2 s of CPU), which in turn took over the 20 s
    // default timeout under a full run's load.
    const [adminHelp, help, checkConfig, noCommand] = await Promise.all([
      withStdoutClosed(['admin', '--help']),
      // The top-level usage and check-config print on stdout too (they threw Node's EPIPE stack trace).
      withStdoutClosed(['--help']),
      withStdoutClosed(['check-config', 'config/gateway.yaml']),
      withStdoutClosed([]),
    ]);
    expect(adminHelp).toEqual({ code: 1, stderr: line });
    expect(help).toEqual({ code: 1, stderr: line });
    expect(checkConfig).toEqual({ code: 1, stderr: line });
    // A usage error keeps its exit code 2.
    expect(noCommand).toEqual({ code: 2, stderr: line });
  }, 60_000);

  it('prints the admin usage with every contract command', async () => {
    const result = await runCli(['admin', '--help'], {});
    expect(result.code).toBe(0);
    for (const usage of [
      'project create --name NAME --plan free|business|enterprise',
      'project delete PROJECT_ID',
      'client create --project PROJECT_ID --name NAME --scopes address,phone,email',
      'client list --project PROJECT_ID',
      'client disable CLIENT_ID',
      'client enable CLIENT_ID',
      'token revoke JWT_OR_JTI',
      'keys list',
      'keys rotate',
      'apikey create --project PROJECT_ID',
      'account create --name NAME --plan free|business|enterprise',
      'account plan ACCOUNT_ID --plan free|business|enterprise',
      'account disable ACCOUNT_ID',
      'account enable ACCOUNT_ID',
      '--account ACCOUNT_ID',
    ]) {
      expect(result.stdout).toContain(usage);
    }
  });
});
