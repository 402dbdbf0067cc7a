/**
 * A/B of two gateway trees under the same load, interleaved (not part of `npm run bench`):
 * `npx node bench/gateway/ab.ts <other tree> [mode one|cycle|fresh] [rounds]` where the other
 * tree holds src/ and bench/ of another commit (`git archive <commit> src bench | tar -x -C dir`,
 * node_modules symlinked). Prints each round's CPU µs/request and the medians.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { runToJson, startChild } from './children.ts';
import { BENCH_AUDIENCE, BENCH_ISSUER, benchKey, mintTokens } from './mint.ts';

const [other = '', mode = 'one', roundsText = '7'] = process.argv.slice(2);
const rounds = Number(roundsText);
const dir = mkdtempSync(join(tmpdir(), 'tg-ab-'));
const PATH = '/api/au/address/autocomplete';
const key = benchKey();
const upstream = await startChild('upstream-server.ts', [key.jwks], 0);
const perRound = 8_000;
const tokens = mintTokens(key, mode === 'one' ? 1 : mode === 'cycle' ? 10_000 : perRound * rounds * 2 + 10_000);
const file = (name: string, list: string[]) => {
  const path = join(dir, name);
  writeFileSync(path, list.join('\n'));
  return path;
};
const config = file('gateway.yaml', [
  `listen: { port: 0 }\nupstream: { url: "${upstream.info.url}" }\nissuer:\n  issuer: ${BENCH_ISSUER}\n  audience: ${BENCH_AUDIENCE}\n  revocationFeed: { token: ${upstream.info.feedToken} }\nmetrics: { port: 0 }\nroutes:\n  - { path: ${PATH}, auth: bearer, scopes: [address], errorFields: { completions: [] } }\n`,
]);
const here = import.meta.dirname;
const servers = {
  A: await startChild('gateway-server.ts', [config], 1),
  B: await startChild(relative(here, join(other, 'bench/gateway/gateway-server.ts')), [config], 1),
};
const warm = file('warm.txt', tokens.slice(0, 10_000));
const cpu: Record<string, number[]> = { A: [], B: [] };
for (const s of [...Object.values(servers), ...Object.values(servers)]) await runToJson('loadgen.ts', [JSON.stringify({ url: `${s.info.url}${PATH}`, connections: 16, durationMs: 4_000, mode: 'fresh', tokensFile: warm })], 0);
let next = 10_000;
for (let r = 0; r < rounds; r++) {
  for (const [name, s] of Object.entries(servers)) {
    const tokensFile = mode === 'fresh' ? file(`f-${r}-${name}.txt`, tokens.slice(next, next + perRound)) : mode === 'one' ? file('one.txt', tokens.slice(0, 1)) : warm;
    if (mode === 'fresh') next += perRound;
    const before = await s.usage();
    const res = await runToJson<{ requests: number }>('loadgen.ts', [JSON.stringify({ url: `${s.info.url}${PATH}`, connections: 16, durationMs: 2_000, mode: mode === 'fresh' ? 'fresh' : 'cycle', tokensFile })], 0);
    const after = await s.usage();
    cpu[name]?.push((after.cpuUs - before.cpuUs) / res.requests);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
for (const [name, xs] of Object.entries(cpu)) console.log(`${name} ${name === 'A' ? 'this tree' : other}: median ${median(xs).toFixed(1)}, min ${Math.min(...xs).toFixed(1)} µs/req; rounds ${xs.map((x) => x.toFixed(0)).join(' ')}`);
for (const s of [upstream, ...Object.values(servers)]) s.stop();
