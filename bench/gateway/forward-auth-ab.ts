/**
 * A forward-auth decision's cost against a proxied request (not part of `npm run bench`):
 * `npx node bench/gateway/forward-auth-ab.ts [rounds]` runs two gateways of this tree side by side
 * on the bench upstream, pinned to core 1: one proxying the bearer route, one answering decisions
 * for it (`forwardAuth` in Envoy's shape: the original path after `/ext-authz`, so the load
 * generator's requests need no extra header). Same 10,000 tokens cycled, 16 connections. Slices
 * interleave (order reversed every other round); each prints CPU µs/request and requests/s, then
 * the medians and the decision's CPU as a share of the proxied request's. The proxy's own work
 * (NGINX, Envoy) is not counted: only the gateway's.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, startLoadGenerator } from './children.ts';
import { BEARER_PATH, gatewayYaml } from './config.ts';
import { benchKey, mintTokens } from './mint.ts';

const PREFIX = '/ext-authz';
const rounds = Number(process.argv[2] ?? 9);
const dir = mkdtempSync(join(tmpdir(), 'tg-forward-auth-ab-'));
const key = benchKey();
const upstream = await startChild('upstream-server.ts', [key.jwks], 0);
const tokensFile = join(dir, 'tokens.txt');
writeFileSync(tokensFile, mintTokens(key, 10_000).join('\n'));
const configFor = (name: string, extra: string) => {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, extra + gatewayYaml(upstream.info.url ?? '', upstream.info.feedToken ?? ''));
  return path;
};
const decision = 'forwardAuth: { proxy: envoy, trustedProxies: [127.0.0.1], pathPrefix: /ext-authz }\n';
const servers = {
  proxied: { child: await startChild('gateway-server.ts', [configFor('proxied', '')], 1), path: BEARER_PATH },
  decision: {
    child: await startChild('gateway-server.ts', [configFor('decision', decision)], 1),
    path: PREFIX + BEARER_PATH,
  },
};
const load = await startLoadGenerator(0);
const job = (url: string, durationMs: number) => ({
  label: 'forward-auth',
  url,
  connections: 16,
  durationMs,
  mode: 'cycle' as const,
  tokensFile,
});
for (let warm = 0; warm < 3; warm++)
  for (const s of Object.values(servers))
    await load.run({ ...job(`${s.child.info.url}${s.path}`, 60_000), limit: 10_000 });
const figures: Record<string, { cpu: number[]; rps: number[]; non2xx: number }> = {};
for (const name of Object.keys(servers)) figures[name] = { cpu: [], rps: [], non2xx: 0 };
for (let r = 0; r < rounds; r++) {
  const order = Object.entries(servers);
  for (const [name, s] of r % 2 === 0 ? order : order.toReversed()) {
    const before = await s.child.usage();
    const res = await load.run(job(`${s.child.info.url}${s.path}`, 1_000));
    const after = await s.child.usage();
    const f = figures[name] as { cpu: number[]; rps: number[]; non2xx: number };
    f.cpu.push((after.cpuUs - before.cpuUs) / res.requests);
    f.rps.push((res.requests / res.elapsedMs) * 1000);
    f.non2xx += res.non2xx + res.errors;
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const base = figures['proxied'] as { cpu: number[]; rps: number[] };
console.log(`node ${process.version}; ${rounds} rounds of 1 s slices per gateway, interleaved; 16 connections`);
for (const [name, f] of Object.entries(figures))
  console.log(
    `${name.padEnd(9)} CPU median ${median(f.cpu).toFixed(1)} µs/req (min ${Math.min(...f.cpu).toFixed(1)}), ` +
      `${median(f.rps).toFixed(0)} req/s; CPU vs proxied: ${(median(f.cpu) / median(base.cpu)).toFixed(3)}x; ` +
      `non-2xx ${f.non2xx}`,
  );
for (const s of [upstream, ...Object.values(servers).map((s) => s.child), load]) s.stop();
