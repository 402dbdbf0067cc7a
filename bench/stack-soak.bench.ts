/**
 * The whole local stack (`tokengate start`: upstream and gateway in one process) under a mixed
 * load from 64 keep-alive clients: valid calls on three routes, a wrong scope (401 1026, as the
 * spec has it), invalid tokens, no credentials and revoked tokens, while tokens are revoked (one a
 * second), a client is disabled and enabled (every 2 s) and the gateway reloads (SIGHUP, every
 * 5 s). Requests per second and
 * the process's resident memory (VmRSS, sampled every second after the warm-up) are printed per
 * checkout, side by side in one run, rounds alternating between the checkouts:
 *
 *   npm run bench -- stack-soak                       # this checkout
 *   SOAK_OTHER=/path/to/other/checkout npm run bench -- stack-soak   # and another (its own npm ci)
 *   SOAK_SECONDS=20 SOAK_WARMUP=10 SOAK_ROUNDS=2 …
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'undici';

const CONNECTIONS = 64;
const ADMIN_TOKEN = 'soak-admin-token-0123456789abcdef0123456789';
const seconds = Number(process.env['SOAK_SECONDS'] ?? 20);
const warmup = Number(process.env['SOAK_WARMUP'] ?? 10);
const rounds = Number(process.env['SOAK_ROUNDS'] ?? 2);

interface Stack {
  readonly child: ChildProcess;
  readonly gateway: string;
  readonly admin: string;
  readonly dataDir: string;
}

async function startStack(dir: string, base: number): Promise<Stack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tg-soak-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    GATEWAY_PORT: String(base),
    UPSTREAM_PORT: String(base + 1),
    ADMIN_PORT: String(base + 2),
    METRICS_PORT: String(base + 3),
    UPSTREAM_METRICS_PORT: String(base + 4),
    ADMIN_TOKEN,
    LOG_LEVEL: 'error',
    NODE_ENV: 'production',
  };
  delete env['REDIS_URL'];
  const node = join(dir, 'node_modules', '.bin', 'node');
  const child = spawn(
    node,
    [...(process.env['SOAK_NODE_ARGS']?.split(' ').filter(Boolean) ?? []), 'src/cli/main.ts', 'start'],
    {
      cwd: dir,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const gateway = `http://127.0.0.1:${base}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`stack in ${dir} exited ${child.exitCode}`);
    const up = await fetch(`${gateway}/.well-known/jwks.json`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`stack in ${dir} not ready in 180 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { child, gateway, admin: `http://127.0.0.1:${base + 2}`, dataDir };
}

async function adminCall(s: Stack, method: string, path: string, body?: unknown) {
  const res = await fetch(`${s.admin}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await res.json()) as Record<string, string>;
}

async function token(s: Stack, c: Record<string, string>): Promise<string> {
  const res = await fetch(`${s.gateway}/oauth/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: c['client_id'] ?? '',
      client_secret: c['client_secret'] ?? '',
    }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token: ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

async function revoke(s: Stack, c: Record<string, string>, t: string): Promise<void> {
  await fetch(`${s.gateway}/oauth/revoke`, {
    method: 'POST',
    body: new URLSearchParams({ token: t, client_id: c['client_id'] ?? '', client_secret: c['client_secret'] ?? '' }),
  }).then((r) => r.arrayBuffer());
}

async function rss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

interface Result {
  rps: number;
  rssMedian: number;
  rssMax: number;
  statuses: Map<number, number>;
}

async function soak(dir: string, base: number): Promise<Result> {
  const s = await startStack(dir, base);
  const pid = s.child.pid as number;
  try {
    const project = await adminCall(s, 'POST', '/projects', { name: 'soak', plan: 'enterprise' });
    const full = await adminCall(s, 'POST', `/projects/${project['id']}/clients`, {
      name: 'full',
      scopes: ['address', 'phone', 'email'],
    });
    const narrow = await adminCall(s, 'POST', `/projects/${project['id']}/clients`, {
      name: 'narrow',
      scopes: ['phone'],
    });
    const toggled = await adminCall(s, 'POST', `/projects/${project['id']}/clients`, {
      name: 'toggled',
      scopes: ['phone'],
    });
    const good = await token(s, full);
    const wrong = await token(s, narrow);
    const revoked: string[] = [];
    for (let i = 0; i < 5; i++) {
      const t = await token(s, full);
      await revoke(s, full, t);
      revoked.push(t);
    }
    let toggledToken = await token(s, toggled);
    const invalid = `${good.slice(0, -8)}AAAAAAAA`;
    const calls: Array<() => { path: string; auth?: string }> = [
      () => ({ path: '/api/phone/v1/verification?phone_number=%2B61412345678&default_country_code=AU', auth: good }),
      () => ({ path: '/api/email/v1/verification?email=someone%40example.com', auth: good }),
      () => ({ path: '/api/au/address/autocomplete?q=1%20george%20st', auth: good }),
      () => ({ path: '/api/phone/v1/verification?phone_number=%2B61412345678&default_country_code=AU', auth: good }),
      () => ({ path: '/api/email/v1/verification?email=x%40example.com', auth: wrong }),
      () => ({ path: '/api/phone/v1/verification?phone_number=%2B61412345678&default_country_code=AU', auth: invalid }),
      () => ({ path: '/api/phone/v1/verification?phone_number=%2B61412345678&default_country_code=AU' }),
      () => ({
        path: '/api/phone/v1/verification?phone_number=%2B61412345678&default_country_code=AU',
        auth: revoked[revoked.length - 1],
      }),
      () => ({
        path: '/api/phone/v1/verification?phone_number=%2B61412345678&default_country_code=AU',
        auth: toggledToken,
      }),
    ];
    const pool = new Pool(s.gateway, { connections: CONNECTIONS, pipelining: 1 });
    const statuses = new Map<number, number>();
    let counting = false;
    let done = 0;
    let stop = false;
    const worker = async (w: number) => {
      for (let i = w; !stop; i++) {
        const call = (calls[i % calls.length] as () => { path: string; auth?: string })();
        const res = await pool.request({
          method: 'GET',
          path: call.path,
          headers: call.auth ? { authorization: `Bearer ${call.auth}` } : {},
        });
        await res.body.dump();
        if (counting) {
          done++;
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        }
      }
    };
    const background = async () => {
      for (let tick = 0; !stop; tick++) {
        await new Promise((r) => setTimeout(r, 1000));
        const t = await token(s, full);
        await revoke(s, full, t);
        revoked.push(t);
        if (revoked.length > 50) revoked.shift();
        if (tick % 2 === 0) {
          await adminCall(s, 'POST', `/clients/${toggled['client_id']}/disable`);
          await adminCall(s, 'POST', `/clients/${toggled['client_id']}/enable`);
          toggledToken = await token(s, toggled);
        }
        if (tick % 5 === 4) s.child.kill('SIGHUP');
      }
    };
    const workers = Array.from({ length: CONNECTIONS }, (_, w) => worker(w));
    const bg = background();
    await new Promise((r) => setTimeout(r, warmup * 1000));
    counting = true;
    const started = performance.now();
    const samples: number[] = [];
    while (performance.now() - started < seconds * 1000) {
      samples.push(await rss(pid));
      await new Promise((r) => setTimeout(r, 1000));
    }
    const rps = done / ((performance.now() - started) / 1000);
    counting = false;
    stop = true;
    await Promise.all([...workers, bg]);
    await pool.close();
    samples.sort((a, b) => a - b);
    return { rps, rssMedian: samples[Math.floor(samples.length / 2)] ?? 0, rssMax: samples.at(-1) ?? 0, statuses };
  } finally {
    s.child.kill('SIGTERM');
    await new Promise((r) => s.child.once('exit', r));
    await rm(s.dataDir, { recursive: true, force: true });
  }
}

export default async function main(): Promise<void> {
  const here = resolve(import.meta.dirname, '..');
  const other = process.env['SOAK_OTHER'];
  const checkouts = other ? [here, resolve(other)] : [here];
  const base = 20_000 + (process.pid % 2000) * 5;
  const results = new Map<string, Result[]>(checkouts.map((c) => [c, []]));
  for (let r = 0; r < rounds; r++)
    for (const dir of r % 2 === 0 ? checkouts : [...checkouts].reverse()) {
      const result = await soak(dir, base);
      results.get(dir)?.push(result);
      console.log(
        `round ${r + 1} ${dir}: ${result.rps.toFixed(0)} req/s, RSS median ${result.rssMedian.toFixed(0)} MB, max ${result.rssMax.toFixed(0)} MB, statuses ${JSON.stringify(Object.fromEntries(result.statuses))}`,
      );
    }
  console.log(`\n${CONNECTIONS} keep-alive clients, ${warmup} s warm-up, ${seconds} s measured, ${rounds} rounds`);
  console.log('checkout                                   req/s (per round)        RSS MB median (per round)');
  for (const [dir, list] of results)
    console.log(
      `${dir.padEnd(42)} ${list
        .map((x) => x.rps.toFixed(0))
        .join(' / ')
        .padEnd(24)} ${list.map((x) => x.rssMedian.toFixed(0)).join(' / ')}`,
    );
}
