/**
 * Instructions per request, counted by valgrind's callgrind (not part of `npm run bench`):
 * `npx node bench/gateway/instructions.ts [plain|public|one|cycle|fresh ...]`.
 *
 * Time on this shared machine drifts by ±5 % and more from run to run, so the split of a
 * request's cost is read here: callgrind counts the instructions each thread of the measured
 * server executes, whatever else the machine does. Each scenario gets its own server under
 * callgrind with instrumentation off; after CG_WARMUP requests (default 24,000: V8 still tiers
 * the proxy path up after 16,000) it is switched on for CG_MEASURED requests (default 4,000)
 * and each thread's total is divided by them. The main thread is the JavaScript; the others
 * are V8's compiler and GC helpers. Counts still move by up to ~4 % between runs of the same
 * code (JIT and GC decisions depend on timing; V8's `--predictable`, CG_PREDICTABLE=1, made
 * it worse), so compare several runs. CG_VALGRIND_FLAGS adds callgrind flags (`--cache-sim=yes
 * --branch-sim=yes`: simulated cache misses; slow, so timer-driven work weighs more per request).
 * CG_NODE_FLAGS adds node flags (`--perf-basic-prof`
 * writes /tmp/perf-<pid>.map, which names the JIT frames callgrind shows as addresses).
 * The upstream and the load generator run natively on core 0. Scenarios as in
 * gateway.bench.ts; "cycle" cycles 2,000 tokens, each seen twice in the warm-up.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, startChild, startLoadGenerator } from './children.ts';
import { BEARER_PATH, gatewayYaml, PUBLIC_PATH } from './config.ts';
import type { LoadJob } from './loadgen.ts';
import { benchKey, mintTokens } from './mint.ts';

type Scenario = 'plain' | 'public' | 'one' | 'cycle' | 'fresh';
const ALL: Scenario[] = ['plain', 'public', 'one', 'cycle', 'fresh'];
const chosen = (process.argv.slice(2) as Scenario[]).filter((s) => ALL.includes(s));
const scenarios = chosen.length > 0 ? chosen : ALL;
const MEASURED = Number(process.env.CG_MEASURED ?? 4_000);
const CYCLED = 2_000;
const WARMUP = Math.max(Number(process.env.CG_WARMUP ?? 24_000), 2 * CYCLED);
/** Extra callgrind flags (CG_VALGRIND_FLAGS), e.g. `--cache-sim=yes --branch-sim=yes` for simulated cache misses and mispredictions. */
const VALGRIND_FLAGS = (process.env.CG_VALGRIND_FLAGS ?? '').split(' ').filter(Boolean);
const NODE_FLAGS = [...(process.env.CG_PREDICTABLE === '1' ? ['--predictable'] : []), ...(process.env.CG_NODE_FLAGS ?? '').split(' ').filter(Boolean)];

const dir = mkdtempSync(join(tmpdir(), 'tg-cg-'));
const key = benchKey();
const upstream = await startChild('upstream-server.ts', [key.jwks], 0);
const upstreamUrl = upstream.info.url ?? '';
const config = join(dir, 'gateway.yaml');
writeFileSync(config, gatewayYaml(upstreamUrl, upstream.info.feedToken ?? ''));
const tokens = mintTokens(key, 1 + CYCLED + WARMUP + MEASURED);
const file = (name: string, list: string[]) => {
  const path = join(dir, name);
  writeFileSync(path, list.join('\n'));
  return path;
};
const files = { one: file('one.txt', tokens.slice(0, 1)), cycle: file('cycle.txt', tokens.slice(1, 1 + CYCLED)), fresh: file('fresh.txt', tokens.slice(1 + CYCLED)) };
const load = await startLoadGenerator(0);

console.log(`node ${process.version}; callgrind${process.env.CG_PREDICTABLE === "1" ? " (V8 --predictable)" : ""}; ${WARMUP} warm-up requests, then ${MEASURED} counted; 4 connections`);
for (const scenario of scenarios) {
  const out = mkdtempSync(join(dir, `${scenario}-`));
  const valgrind = ['valgrind', '-q', '--tool=callgrind', '--instr-atstart=no', '--separate-threads=yes', ...VALGRIND_FLAGS, `--callgrind-out-file=${join(out, 'cg.%p')}`];
  const server: Child =
    scenario === 'plain'
      ? await startChild('plain-proxy.ts', [upstreamUrl], 1, process.env, NODE_FLAGS, valgrind)
      : await startChild('gateway-server.ts', [config], 1, process.env, NODE_FLAGS, valgrind);
  const job = (limit: number, fresh: boolean): LoadJob => ({
    label: scenario,
    url: `${server.info.url}${scenario === 'public' ? PUBLIC_PATH : BEARER_PATH}`,
    connections: 4,
    durationMs: 3_600_000,
    mode: fresh ? 'fresh' : 'cycle',
    tokensFile: scenario === 'cycle' ? files.cycle : scenario === 'fresh' ? files.fresh : files.one,
    limit,
  });
  const warm = await load.run(job(WARMUP, scenario === 'fresh'));
  const pid = String(server.process.pid);
  execFileSync('callgrind_control', ['--instr=on', pid], { stdio: 'ignore' });
  const measured = await load.run(job(MEASURED, scenario === 'fresh'));
  execFileSync('callgrind_control', ['--dump', pid], { stdio: 'ignore' });
  server.stop();
  // One dump per thread ('cg.<pid>.1-<thread>'); thread 01 is the main (JavaScript) thread.
  const totals = readdirSync(out)
    .filter((name) => /^cg\.\d+\.\d+-\d+$/.test(name))
    .map((name) => ({ main: name.endsWith('-01'), ir: Number(/^(?:summary|totals): (\d+)/m.exec(readFileSync(join(out, name), 'utf8'))?.[1] ?? 0) }));
  const main = totals.find((t) => t.main)?.ir ?? Number.NaN;
  const all = totals.reduce((sum, t) => sum + t.ir, 0);
  const failures = warm.errors + warm.non2xx + measured.errors + measured.non2xx;
  const k = (ir: number) => `${(ir / measured.requests / 1000).toFixed(1)}k`;
  console.log(`${scenario.padEnd(7)} main thread ${k(main)}, all threads ${k(all)} instructions/request (${measured.requests} requests${failures ? `, ${failures} FAILED` : ''})  ${out}`);
}
load.stop();
upstream.stop();
