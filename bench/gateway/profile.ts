/**
 * Profiles one measured server under the bench's load generator (not part of `npm run bench`):
 * `npx node bench/gateway/profile.ts gateway|plain one|cycle|fresh [seconds]`.
 * The server runs pinned with `--cpu-prof`; prints the top functions by self time.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, startLoadGenerator } from './children.ts';
import type { LoadJob } from './loadgen.ts';
import { BEARER_PATH as PATH, gatewayYaml } from './config.ts';
import { benchKey, mintTokens } from './mint.ts';

const [which = 'gateway', mode = 'one', seconds = '5'] = process.argv.slice(2);
const outDir = mkdtempSync(join(tmpdir(), `tg-prof-${which}-`));
const key = benchKey();
const upstream = await startChild('upstream-server.ts', [key.jwks], 0);
/** Requests before the measured window (PROFILE_WARMUP): V8 keeps tiering up for tens of thousands. */
const WARMUP = Number(process.env.PROFILE_WARMUP ?? 30_000);
const count = mode === 'one' ? 1 : mode === 'cycle' ? 10_000 : WARMUP + 40_000;
const tokens = join(outDir, 'tokens.txt');
writeFileSync(tokens, mintTokens(key, count).join('\n'));
const config = join(outDir, 'gateway.yaml');
writeFileSync(config, gatewayYaml(upstream.info.url ?? '', upstream.info.feedToken ?? ''));
// PROFILE=0: no profiler, only the CPU per request (and whatever the server prints).
const profiling = process.env.PROFILE !== '0';
const flags = profiling ? ['--cpu-prof', `--cpu-prof-dir=${outDir}`, '--cpu-prof-interval=100'] : [];
const args = which === 'plain' ? [upstream.info.url ?? ''] : [config];
const server = await startChild(
  which === 'plain' ? 'plain-proxy.ts' : 'gateway-server.ts',
  args,
  1,
  process.env,
  flags,
);
const load = await startLoadGenerator(0);
const job = (ms: number, m: LoadJob['mode'], limit?: number): LoadJob => ({
  label: m,
  url: `${server.info.url}${PATH}`,
  connections: 16,
  durationMs: ms,
  mode: m,
  tokensFile: tokens,
  ...(limit ? { limit } : {}),
});
// Warm-up: WARMUP requests of the measured kind (fresh: the first WARMUP tokens; the cursor
// persists). In cycle mode that is every token at least twice (the token cache admits on the
// second sighting, src/auth/admission.ts), else the window would profile admissions.
await load.run(job(600_000, mode === 'fresh' ? 'fresh' : 'cycle', Math.max(WARMUP, mode === 'cycle' ? 2 * count : 0)));
const before = await server.usage();
const result = await load.run(job(Number(seconds) * 1000, mode === 'fresh' ? 'fresh' : 'cycle'));
const after = await server.usage();
const perThousand = (n: number) => ((n / result.requests) * 1000).toFixed(2);
console.log(
  JSON.stringify(result),
  `CPU µs/req ${((after.cpuUs - before.cpuUs) / result.requests).toFixed(1)}; per 1,000 requests: ${perThousand(after.gc.minor - before.gc.minor)} minor and ${perThousand(after.gc.major - before.gc.major)} major GCs, ${perThousand(after.gc.ms - before.gc.ms)} ms paused`,
);
await new Promise<void>((resolve) => {
  server.process.once('exit', () => resolve());
  server.process.kill('SIGINT');
});
upstream.stop();
load.stop();
if (!profiling) process.exit(0);

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const file = readdirSync(outDir).find((f) => f.endsWith('.cpuprofile')) ?? '';
const profile = JSON.parse(readFileSync(join(outDir, file), 'utf8')) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  endTime: number;
};
// Only the measured window (the last `seconds` before SIGINT, less the shutdown): no start-up.
const times: number[] = [];
let t = 0;
for (const d of profile.timeDeltas) {
  t += d;
  times.push(t);
}
const end = times.at(-1) ?? 0;
const from = end - (Number(seconds) + 0.2) * 1e6;
const counts = new Map<number, number>();
let total = 0;
let spanUs = 0;
profile.samples.forEach((id, i) => {
  if ((times[i] ?? 0) < from || (times[i] ?? 0) > end - 0.2e6) return;
  counts.set(id, (counts.get(id) ?? 0) + 1);
  total++;
  spanUs += profile.timeDeltas[i] ?? 0;
});
const self = new Map<string, number>();
for (const node of profile.nodes) {
  const { functionName, url, lineNumber } = node.callFrame;
  const name = `${functionName || '(anon)'} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/main\//, '')}:${lineNumber + 1}`;
  self.set(name, (self.get(name) ?? 0) + (counts.get(node.id) ?? 0));
}
const usPerReq = (n: number) => ((spanUs / total) * n) / result.requests;
console.log(`profile ${join(outDir, file)}; ${total} samples in the window; µs/request by function (self):`);
for (const [name, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROFILE_TOP ?? 50)))
  console.log(`${usPerReq(n).toFixed(2).padStart(7)}  ${name}`);
