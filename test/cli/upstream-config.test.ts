import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#test/stack.ts';
import { runCli } from './cli-runner.ts';

/** Refusing takes well under a second; a process still running after this started instead (and is stopped). */
const STARTED_INSTEAD_MS = 15_000;
const unusable = (source: string) =>
  `${source}: the admin token must be one word of visible characters (ASCII or Latin-1), with no whitespace or control characters (it is sent as "Authorization: Bearer <token>")`;
const UNUSABLE = unusable('ADMIN_TOKEN');

describe('tokengate upstream with a misconfigured environment', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tokengate-upcfg-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a DATABASE_URL whose password holds an unescaped "/" naming DATABASE_URL, without echoing the password (was a bare "Invalid URL")', async () => {
    const password = 'Q3x/Zk9+pW1rT0yLm8vB2nC4dF6gH7jK';
    const result = await runCli(['upstream'], {
      DATA_DIR: dataDir,
      UPSTREAM_PORT: '0',
      ADMIN_PORT: '0',
      DATABASE_URL: `postgres://tokengate:${password}@127.0.0.1:5432/tokengate`,
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(
      'DATABASE_URL: not a valid URL (percent-encode reserved characters in the password',
    );
    expect(result.stderr).not.toContain('Q3x');
    expect(result.stderr).not.toContain('Zk9');
  });

  it('refuses an ADMIN_TOKEN with a space at start, naming ADMIN_TOKEN (the admin API and the CLI could never use it: every call a 401)', async () => {
    const result = await runCli(
      ['upstream'],
      { DATA_DIR: dataDir, UPSTREAM_PORT: '0', ADMIN_PORT: '0', ADMIN_TOKEN: 'correct horse battery staple' },
      undefined,
      STARTED_INSTEAD_MS,
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(UNUSABLE);
    expect(result.stderr).not.toContain('horse');
  });

  it('refuses an admin-token file edited by hand to such a token, naming the file, in the upstream, in start (exit 2 in both: was 1 in start) and in the admin CLI', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tokengate-upcfg-file-'));
    try {
      const file = join(dir, 'admin-token');
      await writeFile(file, 'correct horse battery staple\n', { mode: 0o600 });
      const upstream = await runCli(
        ['upstream'],
        { DATA_DIR: dir, UPSTREAM_PORT: '0', ADMIN_PORT: '0' },
        undefined,
        STARTED_INSTEAD_MS,
      );
      expect(upstream.code).toBe(2);
      expect(upstream.stderr).toContain(unusable(file));
      expect(upstream.stderr).not.toContain('horse');
      const stack = await runCli(
        ['start'],
        { DATA_DIR: dir, UPSTREAM_PORT: '0', ADMIN_PORT: '0', GATEWAY_PORT: '0' },
        undefined,
        STARTED_INSTEAD_MS,
      );
      expect(stack.code).toBe(2);
      expect(stack.stderr).toBe(`tokengate: invalid configuration:\n  ${unusable(file)}\n`);
      const cli = await runCli(['admin', 'keys', 'list', '--json'], { ADMIN_URL: 'http://127.0.0.1:9', DATA_DIR: dir });
      expect(cli.code).toBe(2);
      expect(cli.stderr).toBe(`tokengate: ${unusable(file)}\n`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses such an ADMIN_TOKEN in the admin CLI too, before calling the API', async () => {
    const result = await runCli(['admin', 'keys', 'list', '--json'], {
      ADMIN_URL: 'http://127.0.0.1:9',
      ADMIN_TOKEN: 'correct horse battery staple',
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`tokengate: ${UNUSABLE}\n`);
  });
});

describe('tokengate upstream whose PostgreSQL cannot be opened', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tokengate-updb-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  const start = (databaseUrl: string) =>
    runCli(
      ['upstream'],
      { DATA_DIR: dataDir, UPSTREAM_PORT: '0', ADMIN_PORT: '0', DATABASE_URL: databaseUrl },
      undefined,
      STARTED_INSTEAD_MS,
    );

  it('exits 1 with one line naming the database when nothing listens there (was a bare "connect ECONNREFUSED")', async () => {
    const port = await freePort();
    const result = await start(`postgres://tokengate:pw-not-shown@127.0.0.1:${port}/tokengate`);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `tokengate: cannot open the database at 127.0.0.1:${port}/tokengate (DATABASE_URL): connect ECONNREFUSED 127.0.0.1:${port}\n`,
    );
  });

  it('exits 1 saying the database did not answer within DATABASE_TIMEOUT_MS when it accepts the connection and stays silent (was a bare "timeout expired")', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const result = await runCli(
        ['upstream'],
        {
          DATA_DIR: dataDir,
          UPSTREAM_PORT: '0',
          ADMIN_PORT: '0',
          DATABASE_URL: `postgres://tokengate@127.0.0.1:${port}/tokengate`,
          DATABASE_TIMEOUT_MS: '500',
        },
        undefined,
        STARTED_INSTEAD_MS,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `tokengate: cannot open the database at 127.0.0.1:${port}/tokengate (DATABASE_URL): timeout expired (no answer within 500 ms: DATABASE_TIMEOUT_MS)\n`,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it.skipIf(!process.env['TEST_DATABASE_URL'])(
    'exits 1 naming the database when the server refuses the role, never the user or password (was a bare "role ... does not exist")',
    async () => {
      const server = new URL(process.env['TEST_DATABASE_URL'] ?? '');
      const result = await start(`postgres://tokengate_no_such_role:pw-not-shown@${server.host}/tokengate`);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `^tokengate: cannot open the database at ${server.host.replace(/\./g, '\\.')}/tokengate \\(DATABASE_URL\\): .+\n$`,
        ),
      );
      expect(result.stderr).not.toContain('pw-not-shown');
    },
  );
});
