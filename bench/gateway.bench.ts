/**
 * `npm run bench -- gateway`: the gateway against plain http-proxy-3 and the bare upstream,
 * side by side in one run on the same loopback upstream (issue 3 "Done means"). The measured
 * server runs alone on core 1; the upstream and the load generator share core 0. Each scenario:
 * 1 s warm-up, then 5 s (or until its fresh tokens run out) at 16 keep-alive connections.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, pinningNote, runToJson, startChild } from './gateway/children.ts';
import { BENCH_AUDIENCE, BENCH_ISSUER, benchKey, mintTokens } from './gateway/mint.ts';

const PATH = '/api/au/address/autocomplete';
const CONNECTIONS = 16;
const DURATION_MS = 5_000;
const DISTINCT = 10_000;
const FRESH = 25_000;

interface LoadResult {
  requests: number;
  errors: number;
  non2xx: number;
  elapsedMs: number;
  p50: number;
  p99: number;
}

interface Row extends LoadResult {
  name: string;
  rps: number;
  cpuUsPerReq: number;
}

function gatewayYaml(upstream: string, feedToken: string): string {
  return `listen: { port: 0 }
upstream: { url: "${upstream}" }
issuer:
  issuer: ${BENCH_ISSUER}
  audience: ${BENCH_AUDIENCE}
  revocationFeed: { token: ${feedToken} }
metrics: { port: 0 }
routes:
  - { path: ${PATH}, auth: bearer, scopes: [address], errorFields: { completions: [] } }
`;
}

async function load(url: string, mode: 'none' | 'cycle' | 'fresh', tokensFile: string | undefined, durationMs: number): Promise<LoadResult> {
  const job = { url: `${url}${PATH}`, connections: CONNECTIONS, durationMs, mode, ...(tokensFile ? { tokensFile } : {}) };
  return runToJson<LoadResult>('loadgen.ts', [JSON.stringify(job)], 0);
}

async function measure(name: string, server: Child, mode: 'none' | 'cycle' | 'fresh', tokensFile: string | undefined, warmFile?: string): Promise<Row> {
  await load(server.info.url ?? '', mode === 'fresh' ? 'cycle' : mode, mode === 'fresh' ? warmFile : tokensFile, 1_000);
  const before = await server.usage();
  const result = await load(server.info.url ?? '', mode, tokensFile, mode === 'fresh' ? 15_000 : DURATION_MS);
  const after = await server.usage();
  const rps = (result.requests / result.elapsedMs) * 1000;
  return { name, ...result, rps, cpuUsPerReq: (after.cpuUs - before.cpuUs) / Math.max(1, result.requests) };
}

function print(rows: Row[]): void {
  const plain = rows.find((r) => r.name.startsWith('plain'));
  console.log(`${'scenario'.padEnd(36)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'CPU µs/req'.padStart(10)} ${'vs plain'.padStart(8)}  errors`);
  for (const r of rows) {
    const ratio = plain ? (r.rps / plain.rps).toFixed(2) : '-';
    console.log(
      `${r.name.padEnd(36)} ${r.rps.toFixed(0).padStart(8)} ${r.p50.toFixed(2).padStart(7)} ${r.p99.toFixed(2).padStart(7)} ${r.cpuUsPerReq.toFixed(0).padStart(10)} ${ratio.padStart(8)}  ${r.errors + r.non2xx}`,
    );
  }
}

function goals(rows: Row[]): void {
  const by = (prefix: string) => rows.find((r) => r.name.startsWith(prefix));
  const plain = by('plain');
  if (!plain) return;
  const check = (label: string, row: Row | undefined, min: number) => {
    if (!row) return;
    const ratio = row.rps / plain.rps;
    console.log(`goal ${label}: ${ratio.toFixed(2)}x plain proxy (want >= ${min}) ${ratio >= min ? 'MET' : 'NOT MET'}`);
  };
  check('(a) one token', by('gateway (a)'), 0.95);
  check('(b) 10,000 tokens', by('gateway (b)'), 0.95);
  check('(c) fresh tokens', by('gateway (c)'), 0.75);
  const a = by('gateway (a)');
  if (a) {
    const added = a.p99 - plain.p99;
    console.log(`goal (a) p99 added: ${added.toFixed(2)} ms (want <= 1 ms) ${added <= 1 ? 'MET' : 'NOT MET'}`);
  }
}

export default async function gatewayBench(): Promise<void> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'tg-bench-'));
  const key = benchKey();
  const upstream = await startChild('upstream-server.ts', [key.jwks], 0);
  const children: Child[] = [upstream];
  try {
    const tokens = mintTokens(key, DISTINCT + FRESH + 1);
    const files = { one: join(dir, 'one.txt'), cycle: join(dir, 'cycle.txt'), fresh: join(dir, 'fresh.txt') };
    writeFileSync(files.one, tokens[0] ?? '');
    writeFileSync(files.cycle, tokens.slice(1, DISTINCT + 1).join('\n'));
    writeFileSync(files.fresh, tokens.slice(DISTINCT + 1).join('\n'));
    const config = join(dir, 'gateway.yaml');
    writeFileSync(config, gatewayYaml(upstream.info.url ?? '', upstream.info.feedToken ?? ''));
    console.log(`node ${process.version}, ${CONNECTIONS} connections, measured server on core 1, upstream + load generator on core 0 (${pinningNote}); ${tokens.length} tokens minted`);

    const rows: Row[] = [];
    rows.push(await measure('direct upstream', upstream, 'none', undefined));
    const plain = await startChild('plain-proxy.ts', [upstream.info.url ?? ''], 1);
    children.push(plain);
    rows.push(await measure('plain http-proxy-3 (no auth)', plain, 'none', undefined));
    plain.stop();
    // A fresh gateway per scenario: each starts with empty caches, like a newly started one.
    for (const [name, mode, file] of [
      ['gateway (a) one token reused', 'cycle', files.one],
      ['gateway (b) 10,000 tokens cycled', 'cycle', files.cycle],
      [`gateway (c) every token new (${FRESH})`, 'fresh', files.fresh],
    ] as const) {
      const gateway = await startChild('gateway-server.ts', [config], 1);
      children.push(gateway);
      rows.push(await measure(name, gateway, mode, file, files.one));
      const { rss } = await gateway.usage();
      if (mode === 'fresh') console.log(`gateway RSS after scenario (c): ${Math.round(rss / 2 ** 20)} MiB`);
      gateway.stop();
    }
    print(rows);
    goals(rows);

    const memory = await runToJson<{ checkpoints: Array<{ tokens: number; rssMb: number; heapMb: number }>; accepted: number; refused: number; tokenCacheEntries: number }>(
      'memory.ts',
      ['1000000', '20000'],
      1,
      ['--expose-gc'],
    );
    console.log(
      `memory, 1,000,000 distinct tokens through the verifier (${memory.accepted} valid, ${memory.refused} refused twins; token cache ${memory.tokenCacheEntries} entries, negative cache default): ` +
        memory.checkpoints.map((c) => `${c.tokens / 1000}k: RSS ${c.rssMb} MiB / heap ${c.heapMb} MiB`).join(', '),
    );
  } finally {
    for (const child of children) child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`gateway bench took ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
