/**
 * HAProxy as the gateway bench's anchor: `jwt_verify` (RS256) and the same claim checks the
 * gateway makes (issuer, audience, expiry, the `address` scope) in front of the same upstream,
 * one thread, pinned to the measured core. HAProxy caches nothing: it verifies every request.
 * Found on PATH or in /usr/sbin; when missing and the bench runs as root, installed with apt.
 * Its CPU time is read from /proc, as it answers no usage probe.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import type { Child, Usage } from './children.ts';
import { pinned } from './children.ts';
import { BEARER_PATH } from './config.ts';
import { BENCH_AUDIENCE, BENCH_ISSUER } from './mint.ts';

/** The haproxy binary, installing it when it is missing and apt can (root); undefined when neither. */
export function findHaproxy(): string | undefined {
  const found = locate();
  if (found !== undefined || process.getuid?.() !== 0) return found;
  try {
    console.log('haproxy not found: installing it with apt-get');
    execFileSync('apt-get', ['update', '-q'], { stdio: 'ignore' });
    execFileSync('apt-get', ['install', '-y', '-q', 'haproxy'], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch (error) {
    console.log(`installing haproxy failed: ${(error as Error).message}`);
  }
  return locate();
}

function locate(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':').concat('/usr/sbin', '/usr/local/sbin')) {
    const path = join(dir, 'haproxy');
    if (dir !== '' && existsSync(path)) return path;
  }
  return undefined;
}

export function haproxyVersion(binary: string): string {
  return execFileSync(binary, ['-v'], { encoding: 'utf8' }).split('\n')[0] ?? '';
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** The configuration: one thread; a request without a valid token for the bearer route gets 401, as at the gateway. */
function config(port: number, upstream: URL, publicKeyFile: string): string {
  return `global
  nbthread 1
  maxconn 4000
defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  http-reuse always
frontend bench
  bind 127.0.0.1:${port}
  http-request deny status 404 unless { path ${BEARER_PATH} }
  http-request set-var(txn.bearer) http_auth_bearer
  http-request set-var(txn.alg) var(txn.bearer),jwt_header_query('$.alg')
  http-request deny status 401 unless { var(txn.alg) -m str RS256 }
  http-request deny status 401 unless { var(txn.bearer),jwt_verify(txn.alg,"${publicKeyFile}") -m int 1 }
  http-request set-var(txn.iss) var(txn.bearer),jwt_payload_query('$.iss')
  http-request deny status 401 unless { var(txn.iss) -m str ${BENCH_ISSUER} }
  http-request set-var(txn.aud) var(txn.bearer),jwt_payload_query('$.aud')
  http-request deny status 401 unless { var(txn.aud) -m str ${BENCH_AUDIENCE} }
  http-request set-var(txn.exp) var(txn.bearer),jwt_payload_query('$.exp','int')
  http-request set-var(txn.now) date()
  http-request deny status 401 if { var(txn.exp),sub(txn.now) -m int le 0 }
  http-request set-var(txn.scope) var(txn.bearer),jwt_payload_query('$.scope')
  http-request deny status 403 unless { var(txn.scope) -m sub address }
  default_backend upstream
backend upstream
  server upstream ${upstream.hostname}:${upstream.port}
`;
}

/** CPU (µs) and RSS of a process from /proc: utime and stime in clock ticks (100 a second). */
function procUsage(pid: number): Usage {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tick = 10_000;
  const user = Number(fields[11]) * tick;
  const system = Number(fields[12]) * tick;
  const rssPages = Number(fields[21]);
  return { cpuUs: user + system, userUs: user, rss: rssPages * 4096, gc: { minor: 0, major: 0, ms: 0 } };
}

async function listening(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`haproxy did not listen on ${port}`);
}

/** Starts HAProxy on `core` in front of `upstream`, verifying with the PEM public key given. */
export async function startHaproxy(
  binary: string,
  upstream: string,
  publicKeyPem: string,
  dir: string,
  core: number,
): Promise<Child> {
  const keyFile = join(dir, 'bench-key.pem');
  writeFileSync(keyFile, publicKeyPem);
  const port = await freePort();
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config(port, new URL(upstream), keyFile));
  const [cmd, argv] = pinned(core, [binary, '-f', file, '-db']);
  const child = spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`haproxy exited with ${code}`))),
  );
  await Promise.race([listening(port), exited]);
  exited.catch(() => undefined);
  const pid = child.pid as number;
  return {
    process: child,
    info: { url: `http://127.0.0.1:${port}` },
    usage: async () => procUsage(pid),
    stop: () => {
      child.removeAllListeners('exit');
      child.kill('SIGKILL');
    },
  };
}
