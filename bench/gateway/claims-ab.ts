/**
 * What claim rules and claim headers cost on the hot path (not part of `npm run bench`; its row
 * there is `gw http-proxy-3 (b) 1 claim rule + 2 claim headers`): `npx node
 * bench/gateway/claims-ab.ts [rounds]` runs three gateways of this tree side by side on the bench
 * upstream, 10,000 tokens of 500 clients cycled: two without claims (the second a twin, whose
 * difference from the first is this machine's noise) and one whose bearer route has one claim
 * rule and two claim headers. Slices interleave (order reversed every other round); it prints
 * each one's median CPU µs/request and req/s, and the median of the per-round CPU ratios to the
 * first gateway.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, startLoadGenerator } from './children.ts';
import { type Figures, interleave, median } from './interleaved.ts';
import { BEARER_PATH, gatewayYaml } from './config.ts';
import { benchKey, mintTokens } from './mint.ts';

const rounds = Number(process.argv[2] ?? 15);
const dir = mkdtempSync(join(tmpdir(), 'tg-claims-ab-'));
const key = benchKey();
const upstream = await startChild('upstream-server.ts', [key.jwks], 0);
const tokensFile = join(dir, 'tokens.txt');
writeFileSync(tokensFile, mintTokens(key, 10_000).join('\n'));
const configFor = (name: string, claims: boolean) => {
  const path = join(dir, `${name}.yaml`);
  const feed = upstream.info.feedToken ?? '';
  writeFileSync(path, gatewayYaml(upstream.info.url ?? '', feed, 'http-proxy-3', undefined, claims));
  return path;
};
const servers = {
  'no claims': await startChild('gateway-server.ts', [configFor('off', false)], 1),
  'no claims (twin)': await startChild('gateway-server.ts', [configFor('twin', false)], 1),
  'rule + 2 headers': await startChild('gateway-server.ts', [configFor('claims', true)], 1),
};
const load = await startLoadGenerator(0);
const contenders = Object.fromEntries(
  Object.entries(servers).map(([name, child]) => [name, { child, url: `${child.info.url ?? ''}${BEARER_PATH}` }]),
);
const figures = await interleave(load, contenders, { label: 'claims', tokensFile, rounds });
const base = figures['no claims'] as Figures;
for (const [name, f] of Object.entries(figures)) {
  const ratios = f.cpu.map((cpu, r) => cpu / (base.cpu[r] ?? Number.NaN));
  console.log(
    `${name.padEnd(18)} CPU median ${median(f.cpu).toFixed(1)} µs/req (min ${Math.min(...f.cpu).toFixed(1)}), ` +
      `${median(f.rps).toFixed(0)} req/s; CPU/req vs no claims, median of rounds: ${median(ratios).toFixed(3)}x; ` +
      `non-2xx ${f.non2xx}`,
  );
}
for (const s of [upstream, ...Object.values(servers), load]) s.stop();
