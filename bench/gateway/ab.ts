/**
 * A/B of two gateway trees under the same load, interleaved (not part of `npm run bench`):
 * `npx node bench/gateway/ab.ts <other tree> [mode one|cycle|fresh] [rounds]` where the other
 * tree holds src/ and bench/ of another commit (`git archive <commit> src bench | tar -x -C dir`,
 * node_modules symlinked). Prints each round's CPU µs/request and the medians.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { startChild, startLoadGenerator } from './children.ts';
import { BEARER_PATH as PATH, gatewayYaml } from './config.ts';
import { benchKey, mintTokens } from './mint.ts';

const [other = '', mode = 'one', roundsText = '7'] = process.argv.slice(2);
const rounds = Number(roundsText);
const dir = mkdtempSync(join(tmpdir(), 'tg-ab-'));
const key = benchKey();
const upstream = await startChild('upstream-server.ts', [key.jwks], 0);
const tokens = mintTokens(key, mode === 'fresh' ? 10_000 + rounds * 2 * 20_000 : 10_000);
const file = (name: string, list: string[]) => {
  const path = join(dir, name);
  writeFileSync(path, list.join('\n'));
  return path;
};
const config = file('gateway.yaml', [gatewayYaml(upstream.info.url ?? '', upstream.info.feedToken ?? '')]);
const here = import.meta.dirname;
const servers = {
  A: await startChild('gateway-server.ts', [config], 1),
  B: await startChild(relative(here, join(other, 'bench/gateway/gateway-server.ts')), [config], 1),
};
const warm = file('warm.txt', tokens.slice(0, 10_000));
const fresh = file('fresh.txt', tokens.slice(10_000));
const one = file('one.txt', tokens.slice(0, 1));
const load = await startLoadGenerator(0);
const url = (s: { info: Record<string, string> }) => `${s.info.url}${PATH}`;
for (const [name, s] of Object.entries(servers))
  await load.run({
    label: `warm ${name}`,
    url: url(s),
    connections: 16,
    durationMs: 60_000,
    mode: 'cycle',
    tokensFile: warm,
    limit: 20_000,
  });
const cpu: Record<string, number[]> = { A: [], B: [] };
for (let r = 0; r < rounds; r++) {
  for (const [name, s] of Object.entries(servers)) {
    const before = await s.usage();
    const res = await load.run({
      label: name,
      url: url(s),
      connections: 16,
      durationMs: 2_000,
      mode: mode === 'fresh' ? 'fresh' : 'cycle',
      tokensFile: mode === 'fresh' ? fresh : mode === 'one' ? one : warm,
    });
    const after = await s.usage();
    cpu[name]?.push((after.cpuUs - before.cpuUs) / res.requests);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
for (const [name, xs] of Object.entries(cpu))
  console.log(
    `${name} ${name === 'A' ? 'this tree' : other}: median ${median(xs).toFixed(1)}, min ${Math.min(...xs).toFixed(1)} µs/req; rounds ${xs.map((x) => x.toFixed(0)).join(' ')}`,
  );
for (const s of [upstream, ...Object.values(servers), load]) s.stop();
