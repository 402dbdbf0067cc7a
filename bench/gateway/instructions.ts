/**
 * Instructions per request, counted by valgrind's callgrind (not part of `npm run bench`):
 * `npx node bench/gateway/instructions.ts [plain|forwarder|public|one|cycle|fresh|dpop|dpop-ed ...]`,
 * the gateway on CG_ENGINE (`undici` or the default `http-proxy-3`).
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
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadResult } from './loadgen.ts';
import { type Bench, CYCLED, chosenScenarios, ENGINE, type Scenario, setUpBench } from './one-server.ts';
import type { Child } from './children.ts';

const scenarios = chosenScenarios(process.argv.slice(2));
const MEASURED = Number(process.env.CG_MEASURED ?? 4_000);
const WARMUP = Math.max(Number(process.env.CG_WARMUP ?? 24_000), 2 * CYCLED);
/** Extra callgrind flags (CG_VALGRIND_FLAGS), e.g. `--cache-sim=yes --branch-sim=yes` for simulated cache misses and mispredictions. */
const VALGRIND_FLAGS = (process.env.CG_VALGRIND_FLAGS ?? '').split(' ').filter(Boolean);
const NODE_FLAGS = [
  ...(process.env.CG_PREDICTABLE === '1' ? ['--predictable'] : []),
  ...(process.env.CG_NODE_FLAGS ?? '').split(' ').filter(Boolean),
];

/**
 * `count` requests of the scenario. DPoP proofs are signed just before they are sent and refused
 * once older than 60 s, while callgrind runs the server 50× slower: DPoP goes in batches of 1,000.
 */
async function send(bench: Bench, scenario: Scenario, server: Child, count: number): Promise<LoadResult> {
  const step = scenario.startsWith('dpop') ? 1_000 : count;
  const sum: LoadResult = { requests: 0, errors: 0, non2xx: 0, elapsedMs: 0, p50: 0, p99: 0 };
  for (let done = 0; done < count; done += step) {
    const r = await bench.load.run(bench.job(scenario, server, Math.min(step, count - done)));
    sum.requests += r.requests;
    sum.errors += r.errors;
    sum.non2xx += r.non2xx;
  }
  return sum;
}

const bench = await setUpBench('tg-cg-', WARMUP + MEASURED);
console.log(
  `node ${process.version}; gateway engine ${ENGINE} (CG_ENGINE); callgrind${process.env.CG_PREDICTABLE === '1' ? ' (V8 --predictable)' : ''}; ${WARMUP} warm-up requests, then ${MEASURED} counted; 4 connections`,
);
for (const scenario of scenarios) {
  const out = mkdtempSync(join(bench.dir, `${scenario}-`));
  const valgrind = [
    'valgrind',
    '-q',
    '--tool=callgrind',
    '--instr-atstart=no',
    '--separate-threads=yes',
    ...VALGRIND_FLAGS,
    `--callgrind-out-file=${join(out, 'cg.%p')}`,
  ];
  const server = await bench.start(scenario, NODE_FLAGS, valgrind);
  const warm = await send(bench, scenario, server, WARMUP);
  const pid = String(server.process.pid);
  execFileSync('callgrind_control', ['--instr=on', pid], { stdio: 'ignore' });
  const measured = await send(bench, scenario, server, MEASURED);
  execFileSync('callgrind_control', ['--dump', pid], { stdio: 'ignore' });
  server.stop();
  // One dump per thread ('cg.<pid>.1-<thread>'); thread 01 is the main (JavaScript) thread.
  const totals = readdirSync(out)
    .filter((name) => /^cg\.\d+\.\d+-\d+$/.test(name))
    .map((name) => ({
      main: name.endsWith('-01'),
      ir: Number(/^(?:summary|totals): (\d+)/m.exec(readFileSync(join(out, name), 'utf8'))?.[1] ?? 0),
    }));
  const main = totals.find((t) => t.main)?.ir ?? Number.NaN;
  const all = totals.reduce((sum, t) => sum + t.ir, 0);
  const failures = warm.errors + warm.non2xx + measured.errors + measured.non2xx;
  const k = (ir: number) => `${(ir / measured.requests / 1000).toFixed(1)}k`;
  console.log(
    `${scenario.padEnd(7)} main thread ${k(main)}, all threads ${k(all)} instructions/request (${measured.requests} requests${failures ? `, ${failures} FAILED` : ''})  ${out}`,
  );
}
bench.stop();
