/**
 * `npm run bench -- gateway`: the gateway on each forwarding engine against plain http-proxy-3,
 * a plain undici forwarder, HAProxy verifying the same tokens with `jwt_verify` (where haproxy is
 * installed, or installable with apt as root) and the bare upstream, side by side in one run on
 * the same loopback upstream (issues 3 and 20). The measured
 * servers are pinned to core 1; the upstream and the (raw-socket, cheap) load generator share
 * core 0, so the measured server is the one that runs out of CPU. This machine is shared and its
 * speed drifts from second to second, so the scenarios take turns in short slices (half a second
 * each, order reversed every other pass) and each figure sums all of a scenario's slices: drift
 * falls on every scenario alike. BENCH_PROCESSES (default 1) serves each scenario by that many
 * processes in turn: identical processes here can differ by ±15 %, but each then sits idle
 * longer between its slices, which costs it too. One process's luck lasts its whole run, so the
 * bench makes BENCH_RUNS runs (default 3), each with its own processes and load generator, and
 * judges each goal on the median of its runs. BENCH_SLICES sets the passes (default 16),
 * BENCH_SLICE_MS their length (default 500); BENCH_SKIP_MEMORY=1 leaves out the (slow)
 * 1,000,000-token memory run. Each engine's (d) row is (b) with DPoP-bound tokens, every request
 * with its own proof (issue 23), ES256 in one row and EdDSA in another (issue 31), signed by the
 * load generator before each slice (gateway/dpop.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Child,
  type LoadGenerator,
  pinningNote,
  runToJson,
  startChild,
  startLoadGenerator,
} from './gateway/children.ts';
import type { LoadJob } from './gateway/loadgen.ts';
import { BEARER_PATH as PATH, gatewayYaml, PUBLIC_PATH } from './gateway/config.ts';
import { findHaproxy, haproxyVersion, startHaproxy } from './gateway/haproxy.ts';
import { type MachineLoad, watchMachine } from './gateway/machine.ts';
import { dpopClients } from './gateway/dpop.ts';
import { type BenchKey, benchKey, mintTokens } from './gateway/mint.ts';
import {
  DPOP_ROW,
  emptyTotals,
  HAPROXY_BASELINE,
  printDpop,
  printGc,
  printGoals,
  printTable,
  printVerdicts,
  type Row,
  rows,
  type Totals,
  UNDICI_BASELINE,
  LIMITS_ROW,
  CLAIMS_ROW,
  printClaims,
} from './gateway/report.ts';

const CONNECTIONS = 16;
/** The Redis of the rate-limit scenario (BENCH_REDIS_URL); left out when it does not answer. */
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether a Redis answers PING at `url` within a second. */
async function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port || 6379), hostname);
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}
const SLICES = Number(process.env.BENCH_SLICES ?? 16);
/** Processes per measured scenario (BENCH_PROCESSES); the direct upstream is the one shared upstream. */
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 1);
const SLICE_MS = Number(process.env.BENCH_SLICE_MS ?? 500);
/** Whole runs, each with its own processes (BENCH_RUNS, default 3); each goal is judged on the median of its runs. */
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const DISTINCT = 10_000;
/** The DPoP clients' keys: (d)'s DISTINCT tokens are bound to them in turn. */
const DPOP_KEYS = 100;
/**
 * Requests every measured server gets before its first slice (BENCH_WARMUP), of its own kind:
 * V8 keeps tiering the proxy path up for tens of thousands of requests (a gateway warmed with
 * 3,000 spent 40-60 % more CPU per request than one warmed with 30,000), and a scenario warmed
 * less than another would measure its compiler, not its code. At least every token of (b) twice.
 */
const WARMUP = Math.max(Number(process.env.BENCH_WARMUP ?? 30_000), 2 * DISTINCT);
/** Never-seen tokens for (c)'s warm-up and every slice of it at up to 12,000 requests/s. */
const FRESH = WARMUP + Math.ceil((SLICES * SLICE_MS * 12_000) / 1000);

interface Scenario {
  readonly name: string;
  /** The processes that serve it, taking turns slice by slice. */
  readonly servers: readonly Child[];
  readonly mode: LoadJob['mode'];
  readonly tokensFile: string;
  readonly path?: string;
}

function job(scenario: Scenario, server: Child, durationMs: number): LoadJob {
  return {
    label: scenario.name,
    url: `${server.info.url}${scenario.path ?? PATH}`,
    connections: CONNECTIONS,
    durationMs,
    mode: scenario.mode,
    tokensFile: scenario.tokensFile,
  };
}

async function slice(
  load: LoadGenerator,
  scenario: Scenario,
  server: Child,
  totals: Totals,
  machine: MachineLoad,
): Promise<void> {
  machine.sample();
  const before = await server.usage();
  const result = await load.run(job(scenario, server, SLICE_MS));
  const after = await server.usage();
  totals.requests += result.requests;
  totals.errors += result.errors;
  totals.non2xx += result.non2xx;
  totals.elapsedMs += result.elapsedMs;
  totals.cpuUs += after.cpuUs - before.cpuUs;
  totals.userUs += after.userUs - before.userUs;
  totals.p50 = result.p50;
  totals.p99 = result.p99;
  totals.passRates.push((result.requests / result.elapsedMs) * 1000);
  totals.gcMinor += after.gc.minor - before.gc.minor;
  totals.gcMajor += after.gc.major - before.gc.major;
  totals.gcMs += after.gc.ms - before.gc.ms;
}

export default async function gatewayBench(): Promise<void> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'tg-bench-'));
  const key = benchKey();
  const children: Child[] = [];
  try {
    const upstream = await startChild('upstream-server.ts', [key.jwks], 0);
    children.push(upstream);
    const tokens = mintTokens(key, 1 + DISTINCT + FRESH);
    const file = (name: string, list: string[]) => {
      const path = join(dir, name);
      writeFileSync(path, list.join('\n'));
      return path;
    };
    const files: TokenFiles = {
      one: file('one.txt', tokens.slice(0, 1)),
      cycle: file('cycle.txt', tokens.slice(1, 1 + DISTINCT)),
      fresh: file('fresh.txt', tokens.slice(1 + DISTINCT)),
      dpop: file('dpop.json', [JSON.stringify(await dpopClients(key, 'ES256', DISTINCT, DPOP_KEYS, PATH))]),
      dpopEd: file('dpop-eddsa.json', [JSON.stringify(await dpopClients(key, 'EdDSA', DISTINCT, DPOP_KEYS, PATH))]),
    };
    const configs: Configs = {
      httpProxy: join(dir, 'gateway-http-proxy-3.yaml'),
      undici: join(dir, 'gateway-undici.yaml'),
      limitsMemory: join(dir, 'gateway-limits-memory.yaml'),
      limitsRedis: (await redisAnswers(REDIS_URL)) ? join(dir, 'gateway-limits-redis.yaml') : undefined,
      claims: join(dir, 'gateway-claims.yaml'),
    };
    writeFileSync(
      configs.claims,
      gatewayYaml(upstream.info.url ?? '', upstream.info.feedToken ?? '', 'http-proxy-3', undefined, true),
    );
    writeFileSync(configs.httpProxy, gatewayYaml(upstream.info.url ?? '', upstream.info.feedToken ?? ''));
    writeFileSync(configs.undici, gatewayYaml(upstream.info.url ?? '', upstream.info.feedToken ?? '', 'undici'));
    writeFileSync(
      configs.limitsMemory,
      gatewayYaml(upstream.info.url ?? '', upstream.info.feedToken ?? '', 'http-proxy-3', { kind: 'memory' }),
    );
    if (configs.limitsRedis !== undefined)
      writeFileSync(
        configs.limitsRedis,
        gatewayYaml(upstream.info.url ?? '', upstream.info.feedToken ?? '', 'http-proxy-3', {
          kind: 'redis',
          url: REDIS_URL,
          prefix: `tg-bench-${randomUUID()}:`,
        }),
      );
    console.log(
      configs.limitsRedis
        ? `rate limits in Redis: ${REDIS_URL} (BENCH_REDIS_URL)`
        : `rate limits in Redis: not measured (${REDIS_URL} does not answer; BENCH_REDIS_URL names another)`,
    );
    const haproxy = findHaproxy();
    console.log(
      haproxy
        ? `HAProxy: ${haproxyVersion(haproxy)}, jwt_verify RS256 + issuer, audience, expiry and scope checks, one thread`
        : 'HAProxy: not installed (and not root to install it): its row and the goals against it are left out',
    );
    console.log(
      `node ${process.version}; ${RUNS} runs; ${CONNECTIONS} connections; ${PROCESSES} processes per scenario, ${WARMUP} warm-up requests each; ${SLICES} passes of ${SLICE_MS} ms slices per scenario, interleaved, summed; measured servers on core 1, upstream + load generator on core 0 (${pinningNote}); ${tokens.length} RS256 tokens pre-minted, ${DISTINCT} more bound to ${DPOP_KEYS} P-256 DPoP keys and ${DISTINCT} to ${DPOP_KEYS} Ed25519 ones (ES256 and EdDSA proofs signed by the load generator before each slice)`,
    );
    const runs: Row[][] = [];
    for (let run = 1; run <= RUNS; run++) {
      if (RUNS > 1) console.log(`--- run ${run} of ${RUNS}`);
      runs.push(await measureRun(upstream, configs, files, { binary: haproxy, key, dir }));
    }
    if (RUNS > 1) printVerdicts(runs);
    for (const child of children.splice(0)) child.stop();

    if (process.env.BENCH_SKIP_MEMORY) return;
    const memory = await runToJson<{
      checkpoints: Array<{ tokens: number; rssMb: number; heapMb: number }>;
      accepted: number;
      refused: number;
      tokenCacheEntries: number;
    }>('memory.ts', ['1000000', '20000'], 1, ['--expose-gc']);
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

interface Configs {
  readonly httpProxy: string;
  readonly undici: string;
  /** http-proxy-3 with rate limits on every bearer call, counted in process and in Redis (undefined: no Redis). */
  readonly limitsMemory: string;
  readonly limitsRedis: string | undefined;
  /** http-proxy-3 with one claim rule and two claim headers on the bearer route (issue 29). */
  readonly claims: string;
}

/** What HAProxy needs: its binary (undefined: not measured), the tokens' key, a folder for its files. */
interface HaproxySetup {
  readonly binary: string | undefined;
  readonly key: BenchKey;
  readonly dir: string;
}

interface TokenFiles {
  readonly one: string;
  readonly cycle: string;
  readonly fresh: string;
  /** (d)'s DpopClients (dpop.ts), ES256 proofs; `dpopEd` the same with EdDSA (Ed25519) proofs. */
  readonly dpop: string;
  readonly dpopEd: string;
}

/**
 * One run: its own measured processes and load generator (the shared upstream stays), warm-up,
 * the interleaved slices, then the table, GC line and goals. The fresh tokens are reused from
 * run to run: each run's (c) processes have never seen them.
 */
async function measureRun(
  upstream: Child,
  configs: Configs,
  files: TokenFiles,
  haproxySetup: HaproxySetup,
): Promise<Row[]> {
  const children: Child[] = [];
  try {
    // PROCESSES processes per scenario, same configuration, taking turns slice by slice: a
    // scenario pays for its own garbage and cache state (sharing one process, (b) paid for the
    // collections (c)'s garbage caused), and no scenario rests on one process's luck (three
    // identical gateway processes in one run here measured 0.89x, 1.05x and 1.21x plain).
    const processes = async (script: string, args: string[]) => {
      const started: Child[] = [];
      for (let i = 0; i < PROCESSES; i++) started.push(await startChild(script, args, 1));
      children.push(...started);
      return started;
    };
    const upstreamUrl = upstream.info.url ?? '';
    const plain = await processes('plain-proxy.ts', [upstreamUrl]);
    const undiciPlain = await processes('undici-proxy.ts', [upstreamUrl]);
    const gateways = async (config: string) => ({
      none: await processes('gateway-server.ts', [config]),
      a: await processes('gateway-server.ts', [config]),
      b: await processes('gateway-server.ts', [config]),
      c: await processes('gateway-server.ts', [config]),
      d: await processes('gateway-server.ts', [config]),
      e: await processes('gateway-server.ts', [config]),
    });
    const httpProxy = await gateways(configs.httpProxy);
    const undici = await gateways(configs.undici);
    const limitsMemory = await processes('gateway-server.ts', [configs.limitsMemory]);
    const limitsRedis = configs.limitsRedis ? await processes('gateway-server.ts', [configs.limitsRedis]) : undefined;
    const claims = await processes('gateway-server.ts', [configs.claims]);
    const haproxy = haproxySetup.binary
      ? await startHaproxy(
          haproxySetup.binary,
          upstreamUrl,
          haproxySetup.key.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
          haproxySetup.dir,
          1,
        )
      : undefined;
    if (haproxy) children.push(haproxy);
    const load = await startLoadGenerator(0);
    const engineScenarios = (engine: string, g: typeof httpProxy): Scenario[] => [
      {
        name: `gw ${engine} auth: none route`,
        servers: g.none,
        mode: 'cycle',
        path: PUBLIC_PATH,
        tokensFile: files.one,
      },
      { name: `gw ${engine} (a) one token`, servers: g.a, mode: 'cycle', tokensFile: files.one },
      { name: `gw ${engine} (b) 10,000 tokens cycled`, servers: g.b, mode: 'cycle', tokensFile: files.cycle },
      { name: `gw ${engine} (c) every token new`, servers: g.c, mode: 'fresh', tokensFile: files.fresh },
      { name: `gw ${engine} ${DPOP_ROW} ES256 10,000 tokens`, servers: g.d, mode: 'dpop', tokensFile: files.dpop },
      { name: `gw ${engine} ${DPOP_ROW} EdDSA 10,000 tokens`, servers: g.e, mode: 'dpop', tokensFile: files.dpopEd },
    ];
    // Every scenario sends the same request (one bearer token) except where its tokens differ,
    // so the proxies parse the same bytes; the plain proxies, the upstream and the auth: none
    // route ignore the header. HAProxy verifies every request, so one row (10,000 tokens) is its figure.
    const scenarios: Scenario[] = [
      { name: 'direct upstream', servers: [upstream], mode: 'cycle', tokensFile: files.one },
      { name: 'plain http-proxy-3 (no auth)', servers: plain, mode: 'cycle', tokensFile: files.one },
      { name: `${UNDICI_BASELINE} (no auth)`, servers: undiciPlain, mode: 'cycle', tokensFile: files.one },
      ...(haproxy
        ? [
            {
              name: `${HAPROXY_BASELINE} jwt_verify, 10,000 tokens`,
              servers: [haproxy],
              mode: 'cycle' as const,
              tokensFile: files.cycle,
            },
          ]
        : []),
      ...engineScenarios('http-proxy-3', httpProxy),
      ...engineScenarios('undici', undici),
      // Issue 22: the same as (b), with every call taking a token of its client's, its project's and its quota's counter.
      { name: `${LIMITS_ROW} process`, servers: limitsMemory, mode: 'cycle', tokensFile: files.cycle },
      ...(limitsRedis
        ? [{ name: `${LIMITS_ROW} Redis`, servers: limitsRedis, mode: 'cycle' as const, tokensFile: files.cycle }]
        : []),
      // Issue 29: the same as (b), on a route with one claim rule and two claim headers.
      { name: CLAIMS_ROW, servers: claims, mode: 'cycle', tokensFile: files.cycle },
    ];
    // Warm-up: WARMUP requests each, as its slices will send them ((c)'s processes use up the
    // first WARMUP fresh tokens; cursors persist per process), so every server is as warm and
    // (b)'s tokens are all cached. In rounds, so no server has sat idle for minutes when the
    // slices begin (after 3 s idle, a gateway's next 500 ms here cost 1.3-1.7x hot CPU/request).
    const WARMUP_ROUNDS = 6;
    for (let round = 0; round < WARMUP_ROUNDS; round++) {
      for (const s of scenarios)
        for (const server of s.servers)
          await load.run({ ...job(s, server, 600_000), label: 'warm-up', limit: Math.ceil(WARMUP / WARMUP_ROUNDS) });
    }
    const names = scenarios.map((s) => s.name);
    const totals = new Map(names.map((name) => [name, emptyTotals()]));
    const machine = await watchMachine();
    for (let pass = 0; pass < SLICES; pass++) {
      for (const s of pass % 2 === 0 ? scenarios : scenarios.toReversed()) {
        await slice(load, s, s.servers[pass % s.servers.length] as Child, totals.get(s.name) as Totals, machine);
      }
    }
    load.stop();
    const table = rows(names, totals);
    printTable(table);
    printGc(names, totals);
    printGoals(table);
    printDpop(table);
    printClaims(table);
    console.log(machine.report());
    for (const [engine, g] of [
      ['http-proxy-3', httpProxy],
      ['undici', undici],
    ] as const) {
      const rss = Math.max(...(await Promise.all(g.c.map((c) => c.usage()))).map((u) => u.rss));
      const requests = totals.get(`gw ${engine} (c) every token new`)?.requests;
      console.log(
        `RSS of gateway ${engine} (c), largest of its processes after all slices (${requests} tokens in all): ${Math.round(rss / 2 ** 20)} MiB`,
      );
    }
    return table;
  } finally {
    for (const child of children) child.stop();
  }
}
