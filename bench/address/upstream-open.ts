import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '#test/stack.ts';

const CLI = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.ts');

export interface UpstreamOpen {
  /** Process start to `/readyz` 200 (polled every 10 ms). */
  readonly readyMs: number;
  /** What the upstream logged as its data set's load time. */
  readonly loadMs: number;
  /** Resident memory after serving `queries` autocomplete calls, and its peak. */
  readonly rssMb: number;
  readonly peakRssMb: number;
}

/**
 * Starts a real upstream (`tokengate upstream`) on an address data set already installed under
 * `addressDataDir`, times it to ready, serves queries through its public API with an API key,
 * reads its resident memory from /proc and stops it. `cold` first drops the index file from the
 * page cache (`dd iflag=nocache`), so the start reads it from the disk.
 */
export async function openUpstream(options: {
  dataDir: string;
  addressDataDir: string;
  indexFile: string;
  queries: readonly string[];
  cold: boolean;
  /** PostgreSQL for the upstream's store (as replicas run); unset: the embedded store. */
  databaseUrl?: string | undefined;
}): Promise<UpstreamOpen> {
  if (options.cold) execFileSync('dd', [`if=${options.indexFile}`, 'iflag=nocache', 'count=0', 'status=none']);
  const [upstreamPort, adminPort, metricsPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const env = {
    ...process.env,
    UPSTREAM_PORT: String(upstreamPort),
    ADMIN_PORT: String(adminPort),
    UPSTREAM_METRICS_PORT: String(metricsPort),
    DATA_DIR: options.dataDir,
    ADDRESS_DATA_DIR: options.addressDataDir,
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
  };
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'upstream'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  try {
    const url = `http://127.0.0.1:${upstreamPort}`;
    await ready(url, child);
    const readyMs = performance.now() - started;
    const credentials = await apiKey(`http://127.0.0.1:${adminPort}`, options.dataDir);
    for (const q of options.queries) {
      const res = await fetch(`${url}/api/au/address/autocomplete?${new URLSearchParams({ q, ...credentials })}`);
      if (res.status !== 200) throw new Error(`autocomplete answered ${res.status}`);
      await res.arrayBuffer();
    }
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
    const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    const loaded = output.split('\n').find((line) => line.includes('address data set loaded')) ?? '{}';
    return {
      readyMs,
      loadMs: Number((JSON.parse(loaded) as { ms?: number }).ms ?? Number.NaN),
      rssMb: kb('VmRSS') / 1024,
      peakRssMb: kb('VmHWM') / 1024,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

async function ready(url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`upstream exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function apiKey(adminUrl: string, dataDir: string): Promise<{ key: string; secret: string }> {
  const token = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
  const post = async (path: string, body?: unknown): Promise<Record<string, string>> => {
    const res = await fetch(`${adminUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    return (await res.json()) as Record<string, string>;
  };
  const project = await post('/projects', { name: `bench-${Date.now()}`, plan: 'business' });
  const key = await post(`/projects/${project['id']}/apikeys`);
  return { key: key['key']!, secret: key['secret']! };
}
