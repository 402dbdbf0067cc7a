import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '#test/stack.ts';
import { until } from '#test/until.ts';

/** A real proxy process of the test's own, on a free loopback port. */
export interface RunningProxy {
  readonly url: string;
  /** What the proxy wrote to its error log or stderr, for a failing test's message. */
  log(): Promise<string>;
  close(): Promise<void>;
}

const DEPLOY = join(import.meta.dirname, '../../../deploy');

/**
 * deploy/nginx/tokengate.conf as docs/deployment.md has a user install it: its three
 * placeholders filled (what `envsubst '${NGINX_LISTEN} ${TOKENGATE_ADDR} ${UPSTREAM_ADDR}'`
 * does), included from a minimal nginx.conf whose temporary paths and logs are in a directory of
 * the test's own, so NGINX runs without root and writes nothing outside it.
 */
export async function startNginx(tokengateAddr: string, upstreamAddr: string): Promise<RunningProxy> {
  const dir = await mkdtemp(join(tmpdir(), 'tokengate-nginx-'));
  const port = await freePort();
  const values: Record<string, string> = {
    NGINX_LISTEN: `127.0.0.1:${port}`,
    TOKENGATE_ADDR: tokengateAddr,
    UPSTREAM_ADDR: upstreamAddr,
  };
  const site = (await readFile(join(DEPLOY, 'nginx/tokengate.conf'), 'utf8')).replace(
    /\$\{(NGINX_LISTEN|TOKENGATE_ADDR|UPSTREAM_ADDR)\}/g,
    (_, name: string) => values[name] as string,
  );
  await writeFile(join(dir, 'tokengate.conf'), site);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `${kind}_temp_path ${dir}/${kind};`);
  await writeFile(
    join(dir, 'nginx.conf'),
    `worker_processes 1;\n${process.getuid?.() === 0 ? 'user root;\n' : ''}events { worker_connections 64; }\n` +
      `http {\n  access_log off;\n  ${temp.join('\n  ')}\n  include ${dir}/tokengate.conf;\n}\n`,
  );
  const child = spawn(
    '/usr/sbin/nginx',
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', `daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;`],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return started(child, port, dir, () => readFile(join(dir, 'error.log'), 'utf8').catch(() => ''));
}

/**
 * deploy/caddy/Caddyfile as it is, its `{$NAME}` placeholders from Caddy's environment; HOME and
 * the XDG directories in a directory of the test's own (Caddy keeps its autosaved config there).
 */
export async function startCaddy(tokengateAddr: string, upstreamAddr: string): Promise<RunningProxy> {
  const dir = await mkdtemp(join(tmpdir(), 'tokengate-caddy-'));
  const port = await freePort();
  const child = spawn(
    '/usr/bin/caddy',
    ['run', '--adapter', 'caddyfile', '--config', join(DEPLOY, 'caddy/Caddyfile')],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: dir,
        XDG_CONFIG_HOME: dir,
        XDG_DATA_HOME: dir,
        CADDY_LISTEN: `http://127.0.0.1:${port}`,
        TOKENGATE_ADDR: tokengateAddr,
        UPSTREAM_ADDR: upstreamAddr,
      },
    },
  );
  return started(child, port, dir, async () => '');
}

async function started(
  child: ChildProcess,
  port: number,
  dir: string,
  errorLog: () => Promise<string>,
): Promise<RunningProxy> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = once(child, 'exit');
  const log = async () => `${stderr}\n${await errorLog()}`;
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`proxy exited (${child.exitCode}): ${await log()}`);
        return fetch(`http://127.0.0.1:${port}/`).then(
          () => true,
          () => false,
        );
      },
      'the proxy answers',
      { timeoutMs: 20_000, intervalMs: 50 },
    );
  } catch (error) {
    await close();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, log, close };
}
